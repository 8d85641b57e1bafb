import type { CaseInvitation, ManagerCase } from '@ansim/shared/contract/manager';
import { describe, expect, it } from 'vitest';
import { invitationStatus, isActiveInvitation, mergeCaseSnapshot, newReporterMessages } from './case-state';

const baseCase = {
  id: 'c1',
  case_number: 'DEMO-2026-0001',
  status: 'received',
  messages: [
    { id: 'm1', author_kind: 'manager', author_name: '김담당', body: '확인했습니다', created_at: 'x' },
  ],
} as unknown as ManagerCase;

describe('mergeCaseSnapshot', () => {
  it('takes the first snapshot as it is', () => {
    expect(mergeCaseSnapshot(undefined, baseCase)).toBe(baseCase);
  });

  it('keeps the cached object when the stream repeats the same state, so nothing re-renders', () => {
    const repeat = structuredClone(baseCase);
    expect(mergeCaseSnapshot(baseCase, repeat)).toBe(baseCase);
  });

  it('replaces the cache with a changed state', () => {
    const changed = { ...structuredClone(baseCase), status: 'investigating' } as ManagerCase;
    expect(mergeCaseSnapshot(baseCase, changed)).toBe(changed);
  });
});

describe('newReporterMessages', () => {
  it('finds only reporter messages the previous state lacked', () => {
    const next = {
      ...baseCase,
      messages: [
        ...baseCase.messages,
        { id: 'm2', author_kind: 'reporter', author_name: '신고인', body: '추가 자료', created_at: 'y' },
        { id: 'm3', author_kind: 'manager', author_name: '김담당', body: '네', created_at: 'z' },
      ],
    } as ManagerCase;
    expect(newReporterMessages(baseCase, next).map((message) => message.id)).toEqual(['m2']);
  });

  it('announces nothing on the first load', () => {
    expect(newReporterMessages(undefined, baseCase)).toEqual([]);
  });
});

describe('invitationStatus', () => {
  const invitation: CaseInvitation = {
    id: 'i1',
    kind: 'reference',
    name: '박참고',
    email: 'w@example.com',
    witness_index: 0,
    share_evidence: false,
    expires_at: '2026-04-01T00:00:00Z',
    sent_at: '2026-03-01T00:00:00Z',
    opened_at: null,
    acknowledged_at: null,
    responded_at: null,
    revoked_at: null,
    is_expired: false,
  };

  it('follows the furthest step reached', () => {
    expect(invitationStatus(invitation)).toBe('sent');
    expect(invitationStatus({ ...invitation, opened_at: 'a' })).toBe('opened');
    expect(invitationStatus({ ...invitation, opened_at: 'a', acknowledged_at: 'b' })).toBe('acknowledged');
    expect(invitationStatus({ ...invitation, acknowledged_at: 'b', responded_at: 'c' })).toBe('responded');
  });

  it('puts revoked before anything and expiry before unfinished steps', () => {
    expect(invitationStatus({ ...invitation, responded_at: 'c', revoked_at: 'd' })).toBe('revoked');
    expect(invitationStatus({ ...invitation, opened_at: 'a', is_expired: true })).toBe('expired');
    expect(invitationStatus({ ...invitation, responded_at: 'c', is_expired: true })).toBe('responded');
    expect(isActiveInvitation({ ...invitation, is_expired: true })).toBe(false);
    expect(isActiveInvitation({ ...invitation, responded_at: 'c' })).toBe(true);
  });
});
