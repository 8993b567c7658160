// The table below is docs/failure-classification.md, row by row: change one,
// change the other.
import { describe, expect, it } from 'vitest';
import { retryableFailure, terminalFailure } from './consumer-failure.js';
import { classifyFailure, type FailureClass } from './failure-classifier.js';

const BUSINESS_KEY = 'inventory_reservation_pkey';
const businessKeys = new Set([BUSINESS_KEY]);

/** An error as `pg` reports a server error: an Error carrying the SQLSTATE (and the constraint). */
function pgError(code: string, message: string, constraint?: string): Error {
  return Object.assign(new Error(message), {
    code,
    ...(constraint === undefined ? {} : { constraint }),
  });
}

/** An error as Node.js reports a broken socket. */
function socketError(code: string, syscall: string): Error {
  return Object.assign(new Error(`${syscall} ${code} 127.0.0.1:5432`), { code, syscall });
}

function zodError(): Error {
  return Object.assign(new Error('[{"code":"invalid_type","path":["sku"]}]'), { name: 'ZodError' });
}

/** What a row expects: everything but the reason, whose wording is tested below. */
type WithoutReason<T> = T extends unknown ? Omit<T, 'reason'> : never;
type Classified = WithoutReason<FailureClass>;
const retryTransaction = (sqlState: string): Classified => ({
  kind: 'retry-transaction',
  sqlState,
});
const businessDuplicate = (constraint: string): Classified => ({
  kind: 'business-duplicate',
  sqlState: '23505',
  constraint,
});
const terminal = (sqlState?: string): Classified => ({ kind: 'terminal', sqlState });
const retryable = (sqlState?: string): Classified => ({ kind: 'retryable', sqlState });

interface Row {
  error: string;
  thrown: unknown;
  expected: Classified;
}

const table: Row[] = [
  // Restart the whole transaction here: PostgreSQL aborted it, not the message.
  {
    error: '40001 serialization_failure',
    thrown: pgError('40001', 'could not serialize access due to concurrent update'),
    expected: retryTransaction('40001'),
  },
  {
    error: '40P01 deadlock_detected',
    thrown: pgError('40P01', 'deadlock detected'),
    expected: retryTransaction('40P01'),
  },
  // The business fact already happened under another message id.
  {
    error: '23505 unique_violation on a declared business key',
    thrown: pgError('23505', 'duplicate key value violates unique constraint', BUSINESS_KEY),
    expected: businessDuplicate(BUSINESS_KEY),
  },
  // No redelivery can succeed: the data or the code is wrong.
  {
    error: '23505 unique_violation on an undeclared constraint',
    thrown: pgError('23505', 'duplicate key value violates unique constraint', 'order_email_key'),
    expected: terminal('23505'),
  },
  {
    error: '23503 foreign_key_violation',
    thrown: pgError('23503', 'insert or update violates foreign key constraint'),
    expected: terminal('23503'),
  },
  {
    error: '23514 check_violation',
    thrown: pgError('23514', 'new row violates check constraint "inventory_available_check"'),
    expected: terminal('23514'),
  },
  {
    error: '23502 not_null_violation',
    thrown: pgError('23502', 'null value in column "sku" violates not-null constraint'),
    expected: terminal('23502'),
  },
  {
    error: '22P02 invalid_text_representation',
    thrown: pgError('22P02', 'invalid input syntax for type uuid: "evt-7"'),
    expected: terminal('22P02'),
  },
  {
    error: '22003 numeric_value_out_of_range',
    thrown: pgError('22003', 'bigint out of range'),
    expected: terminal('22003'),
  },
  {
    error: '42P01 undefined_table',
    thrown: pgError('42P01', 'relation "inventry" does not exist'),
    expected: terminal('42P01'),
  },
  {
    error: '42703 undefined_column',
    thrown: pgError('42703', 'column "avialable" does not exist'),
    expected: terminal('42703'),
  },
  // Not acknowledged: a later delivery may get past it.
  {
    error: '08000 connection_exception',
    thrown: pgError('08000', 'connection exception'),
    expected: retryable('08000'),
  },
  {
    error: '08003 connection_does_not_exist',
    thrown: pgError('08003', 'connection does not exist'),
    expected: retryable('08003'),
  },
  {
    error: '08006 connection_failure',
    thrown: pgError('08006', 'connection failure'),
    expected: retryable('08006'),
  },
  {
    error: '57P01 admin_shutdown',
    thrown: pgError('57P01', 'terminating connection due to administrator command'),
    expected: retryable('57P01'),
  },
  {
    error: '57014 query_canceled',
    thrown: pgError('57014', 'canceling statement due to statement timeout'),
    expected: retryable('57014'),
  },
  {
    error: '55P03 lock_not_available',
    thrown: pgError('55P03', 'canceling statement due to lock timeout'),
    expected: retryable('55P03'),
  },
  {
    error: '53300 too_many_connections',
    thrown: pgError('53300', 'sorry, too many clients already'),
    expected: retryable('53300'),
  },
  {
    error: '58030 io_error',
    thrown: pgError('58030', 'could not read block 0 in file "base/16384/16385"'),
    expected: retryable('58030'),
  },
  {
    error: 'an unlisted SQLSTATE (P0001 raise_exception)',
    thrown: pgError('P0001', 'raised by a trigger'),
    expected: retryable('P0001'),
  },
  {
    error: 'ECONNREFUSED',
    thrown: socketError('ECONNREFUSED', 'connect'),
    expected: retryable(),
  },
  { error: 'ECONNRESET', thrown: socketError('ECONNRESET', 'read'), expected: retryable() },
  { error: 'ETIMEDOUT', thrown: socketError('ETIMEDOUT', 'connect'), expected: retryable() },
  { error: 'EPIPE', thrown: socketError('EPIPE', 'write'), expected: retryable() },
  {
    error: 'Error "Connection terminated unexpectedly"',
    thrown: new Error('Connection terminated unexpectedly'),
    expected: retryable(),
  },
  // The message itself cannot be parsed: park it.
  { error: 'ZodError', thrown: zodError(), expected: terminal() },
  {
    error: 'ZodError whose text mentions a timeout field',
    thrown: Object.assign(new Error('[{"path":["timeoutMs"]}]'), { name: 'ZodError' }),
    expected: terminal(),
  },
  // An errno that is neither a SQLSTATE nor a network error: unexpected, retried.
  { error: 'EPERM', thrown: socketError('EPERM', 'kill'), expected: retryable() },
  // The unit of work said what it means.
  {
    error: 'terminalFailure(reason) thrown by the work',
    thrown: terminalFailure('unknown SKU'),
    expected: terminal(),
  },
  {
    error: 'retryableFailure(reason) thrown by the work',
    thrown: retryableFailure('pricing service unavailable'),
    expected: retryable(),
  },
  // Unknown: retried until the subscription's retry limit parks it.
  {
    error: 'a plain unexpected Error',
    thrown: new Error('undefined is not a function'),
    expected: retryable(),
  },
];

describe('classifyFailure', () => {
  it.each(table.map((row) => [row.error, row.expected.kind, row] as const))(
    'given %s, it is %s',
    (_error, _kind, { thrown, expected }) => {
      // When
      const { reason, ...classified } = classifyFailure(thrown, businessKeys);

      // Then
      expect(classified).toEqual(expected);
      expect(reason).not.toBe('');
    },
  );

  it('given a 23505 on a business key, without businessKeys declared, it is terminal', () => {
    // Given
    const duplicate = pgError('23505', 'duplicate key value', BUSINESS_KEY);

    // When
    const failure = classifyFailure(duplicate);

    // Then
    expect(failure.kind).toBe('terminal');
  });

  it('given a database error, the reason names the SQLSTATE and keeps the server message', () => {
    // Given
    const violation = pgError('23514', 'new row violates check constraint "available_check"');

    // When
    const failure = classifyFailure(violation, businessKeys);

    // Then
    expect(failure.reason).toBe(
      'SQLSTATE 23514: new row violates check constraint "available_check"',
    );
  });

  it('given a failure thrown by the work, its own reason is kept for the parked message', () => {
    // Given
    const failure = terminalFailure('unknown SKU sku-404');

    // When
    const classified = classifyFailure(failure, businessKeys);

    // Then
    expect(classified.reason).toBe('unknown SKU sku-404');
  });

  it('given something thrown that is not an Error, it is retryable and described', () => {
    // When
    const failure = classifyFailure('a thrown string', businessKeys);

    // Then
    expect(failure).toEqual({
      kind: 'retryable',
      sqlState: undefined,
      reason: 'unexpected error: a thrown string',
    });
  });
});
