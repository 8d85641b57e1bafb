import { afterEach, describe, expect, it } from 'vitest';
import { DRAFT_PREFIX } from '../lib/draft-storage';
import { expiresToMillis, INTAKE_HEADER, intakeHeaders, startIntake, useIntakeToken } from './intake-token';

afterEach(() => {
  useIntakeToken.getState().clear();
  localStorage.clear();
});

describe('intake token', () => {
  it('reads the expiry as epoch seconds, epoch milliseconds or an ISO date', () => {
    expect(expiresToMillis(2_000_000_000)).toBe(2_000_000_000_000);
    expect(expiresToMillis(2_000_000_000_000)).toBe(2_000_000_000_000);
    expect(expiresToMillis('2033-05-18T03:33:20.000Z')).toBe(2_000_000_000_000);
    expect(expiresToMillis(undefined)).toBeNaN();
  });

  it('is kept with the draft, so a reload keeps it, and is sent as the intake header', () => {
    startIntake(
      { token: 'tok-1', expires: Date.now() / 1000 + 3600, company: { name: '데모 주식회사' } },
      'abc',
    );
    expect(JSON.parse(localStorage.getItem(`${DRAFT_PREFIX}intake`)!).token).toBe('tok-1');
    useIntakeToken.setState({ session: null, code: null });
    useIntakeToken.getState().reload();
    expect(useIntakeToken.getState().session?.companyName).toBe('데모 주식회사');
    expect(intakeHeaders()).toEqual({ [INTAKE_HEADER]: 'tok-1' });
  });

  it('is not sent once past its expiry', () => {
    startIntake({ token: 'old', expires: Date.now() / 1000 - 1, company: { name: 'x' } }, null);
    expect(intakeHeaders()).toEqual({});
  });

  it('expiring forgets the token, keeps the code for renewal and remembers that files were lost', () => {
    startIntake({ token: 'tok', expires: Date.now() / 1000 + 3600, company: { name: 'x' } }, 'abc');
    useIntakeToken.getState().expire();
    useIntakeToken.getState().reload();
    expect(useIntakeToken.getState()).toMatchObject({ session: null, code: 'abc', filesLost: true });
    useIntakeToken.getState().dismissFilesLost();
    expect(useIntakeToken.getState().filesLost).toBe(false);
  });
});
