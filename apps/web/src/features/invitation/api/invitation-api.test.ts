import { describe, expect, it } from 'vitest';
import { RequestError } from '../../../lib/request-error';
import { downloadName, linkProblem } from './invitation-api';

describe('linkProblem', () => {
  it('tells an expired link, an invalid one, a used one and a missing acknowledgement apart', () => {
    expect(linkProblem(new RequestError(410, { code: 'INVITATION_EXPIRED', message: '' }))).toBe('expired');
    expect(linkProblem(new RequestError(404, { code: 'NOT_FOUND', message: '' }))).toBe('invalid');
    expect(linkProblem(new RequestError(409, { code: 'ALREADY_SUBMITTED', message: '' }))).toBe(
      'alreadySubmitted',
    );
    expect(linkProblem(new RequestError(409, { code: 'CONFLICT', message: '' }))).toBe('notAcknowledged');
  });

  it('leaves other failures to the generic error message', () => {
    expect(linkProblem(new RequestError(0, { code: 'ERR_NETWORK', message: '' }))).toBeNull();
    expect(linkProblem(new RequestError(500, { code: 'INTERNAL_SERVER_ERROR', message: '' }))).toBeNull();
    expect(linkProblem(new Error('x'))).toBeNull();
  });
});

describe('downloadName', () => {
  it('adds an extension from the type to a generic name, and keeps a name that has one', () => {
    expect(downloadName('증거자료-1', 'image/png')).toBe('증거자료-1.png');
    expect(downloadName('증거자료-2', 'text/plain; charset=utf-8')).toBe('증거자료-2.txt');
    expect(downloadName('증거자료-3', 'application/x-unknown')).toBe('증거자료-3');
    expect(downloadName('반론.pdf', 'application/pdf')).toBe('반론.pdf');
  });
});
