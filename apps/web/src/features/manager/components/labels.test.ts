import i18next from 'i18next';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeLanguage, initI18n } from '../../../lib/i18n';
import { relationshipLabel } from './labels';

beforeAll(async () => {
  await initI18n();
});
afterAll(() => changeLanguage('ko'));

describe('relationship on the manager page', () => {
  it('is translated on the English page, not shown as the stored Korean option', async () => {
    await changeLanguage('en');
    expect(relationshipLabel(i18next.t, '상급자')).toBe('Superior');
    expect(relationshipLabel(i18next.t, '고객·거래처')).toBe('Customer or business partner');
  });

  it('stays as stored in Korean, and free text or nothing stays as it is', async () => {
    await changeLanguage('ko');
    expect(relationshipLabel(i18next.t, '상급자')).toBe('상급자');
    expect(relationshipLabel(i18next.t, '프로젝트 협력사 직원')).toBe('프로젝트 협력사 직원');
    expect(relationshipLabel(i18next.t, '')).toBe('');
  });
});
