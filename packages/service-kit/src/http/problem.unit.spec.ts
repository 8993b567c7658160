import { describe, expect, it } from 'vitest';
import {
  DATABASE_UNAVAILABLE,
  INTERNAL_ERROR,
  ProblemError,
  problemType,
  toProblem,
} from './problem.js';

/** What Fastify's own errors look like: an Error with a code and a status. */
function fastifyError(code: string, statusCode: number, message: string): Error {
  return Object.assign(new Error(message), { code, statusCode });
}

describe('toProblem', () => {
  it('answers a ProblemError with its own status, code, title and detail', () => {
    const error = new ProblemError({
      status: 409,
      code: 'ORDER_ALREADY_CONFIRMED',
      title: 'The order is already confirmed',
      detail: 'A confirmed order cannot be cancelled.',
    });

    expect(toProblem(error)).toEqual({
      type: 'urn:effectively-once:problem:order-already-confirmed',
      status: 409,
      code: 'ORDER_ALREADY_CONFIRMED',
      title: 'The order is already confirmed',
      detail: 'A confirmed order cannot be cancelled.',
    });
  });

  it('adds the extension members of a ProblemError, never over a standard member', () => {
    const problem = toProblem(
      new ProblemError({
        status: 409,
        code: 'PARKED_REPLAY_BEYOND_HORIZON',
        title: 'Refused',
        extensions: { refused: [{ eventId: 'e-1' }], status: 200, detail: 'hidden' },
      }),
    );

    expect(problem).toEqual({
      type: 'urn:effectively-once:problem:parked-replay-beyond-horizon',
      status: 409,
      code: 'PARKED_REPLAY_BEYOND_HORIZON',
      title: 'Refused',
      refused: [{ eventId: 'e-1' }],
    });
  });

  it('leaves detail out of a ProblemError that has none', () => {
    const problem = toProblem(
      new ProblemError({ status: 404, code: 'ORDER_NOT_FOUND', title: 'No such order' }),
    );

    expect(problem).not.toHaveProperty('detail');
  });

  it.each([
    ['FST_ERR_CTP_INVALID_JSON_BODY', 400, 400, 'MALFORMED_JSON'],
    ['FST_ERR_CTP_EMPTY_JSON_BODY', 400, 400, 'MALFORMED_JSON'],
    ['FST_ERR_CTP_BODY_TOO_LARGE', 413, 413, 'PAYLOAD_TOO_LARGE'],
    ['FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['FST_ERR_CTP_INVALID_CONTENT_LENGTH', 400, 400, 'BAD_REQUEST'],
  ])('maps Fastify error %s to %i %s', (code, statusCode, status, problemCode) => {
    const problem = toProblem(fastifyError(code, statusCode, 'framework message'));

    expect(problem).toMatchObject({ status, code: problemCode, type: problemType(problemCode) });
  });

  it('answers any other error with 500 INTERNAL_ERROR and none of its message', () => {
    const problem = toProblem(new Error('password authentication failed for user "order"'));

    expect(problem).toEqual(INTERNAL_ERROR);
    expect(JSON.stringify(problem)).not.toContain('password');
  });

  it("trusts a status code only on Fastify's own errors", () => {
    // An HTTP client's error from a call to another service is our failure, not the caller's.
    const upstream = Object.assign(new Error('Not Found: /authorizations/42'), { statusCode: 404 });

    expect(toProblem(upstream)).toEqual(INTERNAL_ERROR);
    expect(toProblem(fastifyError('FST_ERR_SOMETHING', 500, 'internal detail'))).toEqual(
      INTERNAL_ERROR,
    );
  });

  // What a route meets when the network to PostgreSQL breaks under it (the
  // lab's db-connection-reset and postgres-restart): not a bug, so not 500.
  it.each([
    ['a connection reset', Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })],
    [
      'a refused connection',
      Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    ],
    ['node-postgres losing the connection', new Error('Connection terminated unexpectedly')],
    [
      'SQLSTATE 08006 connection_failure',
      Object.assign(new Error('connection failure'), { code: '08006' }),
    ],
    [
      'SQLSTATE 57P01 admin_shutdown',
      Object.assign(new Error('terminating connection due to administrator command'), {
        code: '57P01',
      }),
    ],
    [
      'SQLSTATE 57P03 cannot_connect_now',
      Object.assign(new Error('the database system is starting up'), { code: '57P03' }),
    ],
  ])('given %s under a request, then 503 DATABASE_UNAVAILABLE, retryable, not 500', (_, error) => {
    expect(toProblem(error)).toEqual(DATABASE_UNAVAILABLE);
    expect(DATABASE_UNAVAILABLE).toMatchObject({ status: 503, code: 'DATABASE_UNAVAILABLE' });
  });

  // Fastify stamps a broken request stream with statusCode 400; Node's error keeps code ECONNRESET.
  function brokenRequestStream(): Error {
    return Object.assign(new Error('aborted'), { code: 'ECONNRESET', statusCode: 400 });
  }

  it('given the request stream broke under the body, then 400 BAD_REQUEST, not 503 DATABASE_UNAVAILABLE', () => {
    const problem = toProblem(brokenRequestStream(), 'request-stream');

    expect(problem).toMatchObject({ status: 400, code: 'BAD_REQUEST' });
    expect(problem).not.toEqual(DATABASE_UNAVAILABLE);
  });

  it('given an ECONNRESET carrying an HTTP status, then it is not read as a lost database', () => {
    expect(toProblem(brokenRequestStream())).not.toEqual(DATABASE_UNAVAILABLE);
  });

  it('given a database error that is the code’s or the setup’s fault, then still 500 INTERNAL_ERROR', () => {
    const undefinedTable = Object.assign(new Error('relation "orders" does not exist'), {
      code: '42P01',
    });
    const badPassword = Object.assign(new Error('password authentication failed'), {
      code: '28P01',
    });
    expect(toProblem(undefinedTable)).toEqual(INTERNAL_ERROR);
    expect(toProblem(badPassword)).toEqual(INTERNAL_ERROR);
  });

  it('answers a thrown non-error with 500 INTERNAL_ERROR', () => {
    expect(toProblem('a string')).toEqual(INTERNAL_ERROR);
    expect(toProblem(undefined)).toEqual(INTERNAL_ERROR);
  });
});
