import { afterEach, describe, expect, it } from 'vitest';
import {
  captureInvitationToken,
  forgetInvitationToken,
  readInvitationToken,
  withoutToken,
} from './invitation-token';

afterEach(() => {
  sessionStorage.clear();
  localStorage.clear();
  window.history.replaceState(null, '', '/');
});

describe('invitation token', () => {
  it('reads the token from the link, keeps it for this tab and removes it from the address bar', () => {
    window.history.replaceState({ idx: 0 }, '', '/defendant?token=abc_DEF-123&lang=ko#top');
    expect(captureInvitationToken('defendant')).toBe('abc_DEF-123');
    expect(sessionStorage.getItem('ansim.invitationToken.defendant')).toBe('abc_DEF-123');
    expect(window.location.pathname).toBe('/defendant');
    expect(window.location.search).toBe('?lang=ko');
    expect(window.location.hash).toBe('#top');
    expect(window.location.href).not.toContain('abc_DEF-123');
    // The router's history state survives the clean-up.
    expect(window.history.state).toEqual({ idx: 0 });
    // Never in localStorage, which outlives the tab.
    expect(JSON.stringify({ ...localStorage })).not.toContain('abc_DEF-123');
  });

  it('finds the stored token after a reload, when the address no longer has one', () => {
    window.history.replaceState(null, '', '/reference?token=tok-1');
    captureInvitationToken('reference');
    window.history.replaceState(null, '', '/reference/a');
    expect(captureInvitationToken('reference')).toBe('tok-1');
    expect(readInvitationToken('reference')).toBe('tok-1');
  });

  it('keeps the accused person’s and a witness’s links apart', () => {
    window.history.replaceState(null, '', '/defendant?token=for-defendant');
    captureInvitationToken('defendant');
    window.history.replaceState(null, '', '/reference?token=for-witness');
    captureInvitationToken('reference');
    expect(readInvitationToken('defendant')).toBe('for-defendant');
    expect(readInvitationToken('reference')).toBe('for-witness');
  });

  it('a newer link replaces the stored token; forgetting removes it', () => {
    window.history.replaceState(null, '', '/defendant?token=old');
    captureInvitationToken('defendant');
    window.history.replaceState(null, '', '/defendant?token=new');
    expect(captureInvitationToken('defendant')).toBe('new');
    forgetInvitationToken('defendant');
    expect(readInvitationToken('defendant')).toBeNull();
    expect(sessionStorage.getItem('ansim.invitationToken.defendant')).toBeNull();
  });

  it('returns null without a link and does not touch the address', () => {
    window.history.replaceState(null, '', '/defendant?x=1');
    expect(captureInvitationToken('defendant')).toBeNull();
    expect(window.location.search).toBe('?x=1');
  });

  it('withoutToken keeps everything but the token', () => {
    expect(withoutToken('http://h/reference?token=t&a=1&b=2#h')).toBe('/reference?a=1&b=2#h');
    expect(withoutToken('http://h/reference?token=t')).toBe('/reference');
  });
});
