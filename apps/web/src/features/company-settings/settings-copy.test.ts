import i18next from 'i18next';
import { describe, expect, it } from 'vitest';
import en from '../../locales/en.json';
import ko from '../../locales/ko.settings.json';
import { describeAuditEntry } from './components/audit-tab';

function keys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, child]) => keys(child, prefix ? `${prefix}.${key}` : key));
}

describe('company settings copy', () => {
  it('has every Korean key in English too, and no English-only key', () => {
    expect(keys(en.settings).sort()).toEqual(keys(ko.settings).sort());
  });

  it('describes each audited change in one Korean line, from old and new values only', async () => {
    const t = i18next.createInstance();
    await t.init({
      lng: 'ko',
      resources: { ko: { translation: ko } },
      interpolation: { escapeValue: false },
    });
    const entry = (
      action: Parameters<typeof describeAuditEntry>[0]['action'],
      detail: Record<string, unknown>,
      targetName: string | null = null,
    ) => ({
      id: '1',
      at: '2026-11-23T10:00:00Z',
      action,
      actor: { id: 'a', name: '최관리' },
      target_type: 'company',
      target_id: null,
      target_name: targetName,
      detail,
    });
    expect(describeAuditEntry(entry('user.role', { from: 'member', to: 'manager' }, '이직원'), t.t)).toBe(
      '이직원: 직원 → 담당자',
    );
    expect(
      describeAuditEntry(
        entry('company.settings', { retention_days: { from: 1095, to: 730 }, notice_contact: 'changed' }),
        t.t,
      ),
    ).toBe('보관 기간: 1095일 → 730일, 문의처 수정');
    expect(describeAuditEntry(entry('company.domain', { step: 'verified', domain: 'a.example' }), t.t)).toBe(
      'a.example 등록',
    );
    expect(describeAuditEntry(entry('company.invitation', { event: 'sent', role: 'manager' }), t.t)).toBe(
      '담당자 초대',
    );
    // The operator's suspension and resumption, in the company's own log (they record no detail).
    expect(describeAuditEntry(entry('company.suspend', {}), t.t)).toContain('이용을 중지했습니다');
    expect(describeAuditEntry(entry('company.resume', {}), t.t)).toContain('이용을 재개했습니다');
  });
});
