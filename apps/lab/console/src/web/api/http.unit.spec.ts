import { describe, expect, it } from 'vitest';
import { ApiError, errorMessage, toApiError } from './http.js';

describe('http errors', () => {
  it('given a problem document, when read, then its status, code and detail are kept', () => {
    const error = toApiError(409, 'Conflict', {
      type: 'about:blank',
      title: 'Conflict',
      status: 409,
      code: 'RUN_IN_PROGRESS',
      detail: 'a scenario is running',
    });

    expect(error).toMatchObject({
      status: 409,
      code: 'RUN_IN_PROGRESS',
      detail: 'a scenario is running',
    });
    expect(errorMessage(error)).toBe('Error 409 RUN_IN_PROGRESS: a scenario is running');
  });

  it('given a problem without a detail, when read, then its title stands in', () => {
    expect(toApiError(404, 'Not Found', { code: 'NOT_FOUND', title: 'Not Found' }).detail).toBe(
      'Not Found',
    );
  });

  it('given a body that is not a problem document, when read, then the HTTP status names the error', () => {
    const error = toApiError(502, 'Bad Gateway', 'upstream died');

    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', detail: 'Bad Gateway' });
  });

  it('given a request that never reached the server, when shown, then only the detail is written', () => {
    const error = new ApiError({
      status: 0,
      code: 'NETWORK_ERROR',
      detail: 'the console cannot be reached',
    });

    expect(errorMessage(error)).toBe('the console cannot be reached');
  });
});
