import type { CaseInvitation, ManagerCase } from '@ansim/shared/contract/manager';

/**
 * The next cached case for a snapshot from the event stream. Snapshots are whole states, so the newest one
 * simply replaces the cache; an identical one (the stream repeats its state as a keep-alive) keeps the old
 * object so nothing re-renders.
 */
export function mergeCaseSnapshot(previous: ManagerCase | undefined, next: ManagerCase): ManagerCase {
  if (previous && previous.id === next.id && JSON.stringify(previous) === JSON.stringify(next))
    return previous;
  return next;
}

/** Messages from the reporter that the previous state did not have, to announce to the manager. */
export function newReporterMessages(previous: ManagerCase | undefined, next: ManagerCase) {
  if (!previous) return [];
  const known = new Set(previous.messages.map((message) => message.id));
  return next.messages.filter((message) => message.author_kind === 'reporter' && !known.has(message.id));
}

export type InvitationStatus = 'revoked' | 'responded' | 'expired' | 'acknowledged' | 'opened' | 'sent';

/** The furthest step an invitation reached; a revoked or expired link cannot move on, so those come first. */
export function invitationStatus(invitation: CaseInvitation): InvitationStatus {
  if (invitation.revoked_at) return 'revoked';
  if (invitation.responded_at) return 'responded';
  if (invitation.is_expired) return 'expired';
  if (invitation.acknowledged_at) return 'acknowledged';
  if (invitation.opened_at) return 'opened';
  return 'sent';
}

/** An invitation that still stands: a second one to the same person would only confuse them. */
export function isActiveInvitation(invitation: CaseInvitation): boolean {
  const status = invitationStatus(invitation);
  return status !== 'revoked' && status !== 'expired';
}
