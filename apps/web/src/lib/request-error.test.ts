import { CLIENT_MESSAGES_KO, ERROR_MESSAGES_KO } from '@ansim/shared/messages.ko';
import { describe, expect, it } from 'vitest';
import { RequestError, toRequestError } from './request-error';

const response = (status: number, data?: unknown) => ({
  isTransportFailure: true,
  response: { status, data },
});
const noResponse = (code?: string) => ({ isTransportFailure: true, code });

describe('toRequestError — R-WEB-7 catalogue', () => {
  it.each([
    [401, 'UNAUTHORIZED', '로그인이 필요합니다.'],
    [500, 'INTERNAL_SERVER_ERROR', '서버에서 오류가 발생했습니다.'],
    [502, 'BAD_GATEWAY', '서버가 응답하지 않습니다. 잠시 후 다시 시도해주세요.'],
  ])('HTTP %i → %s with the fixed Korean text, whatever the body says', (status, code, message) => {
    const error = toRequestError(response(status, { code: 'SOMETHING', message: 'server text' }));
    expect(error).toBeInstanceOf(RequestError);
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status,
      code,
      message,
    });
  });

  it('other status passes the server payload on, including field details', () => {
    const details = { email: '올바른 이메일 주소를 입력해주세요.' };
    const error = toRequestError(
      response(400, { code: 'VALIDATION_ERROR', message: ERROR_MESSAGES_KO.VALIDATION_ERROR, details }),
    );
    expect(error.status).toBe(400);
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.message).toBe('입력값을 확인해주세요.');
    expect(error.details).toEqual(details);
  });

  it('other status without a usable payload is the unknown error', () => {
    const error = toRequestError(response(418, '<html>teapot</html>'));
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 418,
      code: 'UNKNOWN',
      message: '알 수 없는 오류가 발생했습니다.',
    });
  });

  it.each([
    ['ECONNABORTED', 'ECONNABORTED', '요청 시간이 초과되었습니다. 네트워크를 확인해주세요.'],
    ['ENOTFOUND', 'ENOTFOUND', '네트워크 오류입니다. 인터넷 연결을 확인해주세요.'],
    ['ERR_NETWORK', 'ERR_NETWORK', '네트워크 오류입니다. 인터넷 연결을 확인해주세요.'],
    ['ERR_CANCELED', 'ERR_CANCELED', '요청이 취소되었습니다.'],
    ['ECONNRESET', 'ECONNRESET', '네트워크 연결 중 오류가 발생했습니다.'],
  ])('no response, %s → code %s', (input, code, message) => {
    const error = toRequestError(noResponse(input));
    expect({ status: error.status, code: error.code, message: error.message }).toEqual({
      status: 0,
      code,
      message,
    });
  });

  it('no response and no code keeps the network message', () => {
    expect(toRequestError(noResponse()).message).toBe(CLIENT_MESSAGES_KO.OTHER_NETWORK);
  });

  it('a failure that is not a transport error is UNKNOWN', () => {
    const error = toRequestError(new TypeError('x is not a function'));
    expect({ code: error.code, message: error.message }).toEqual({
      code: 'UNKNOWN',
      message: CLIENT_MESSAGES_KO.UNKNOWN,
    });
  });

  it('an already mapped error is returned unchanged', () => {
    const original = new RequestError(409, { code: 'CONFLICT', message: 'x' });
    expect(toRequestError(original)).toBe(original);
  });
});
