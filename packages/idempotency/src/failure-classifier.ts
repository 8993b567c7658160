// One place decides what every failure inside a consumer's transaction means.
// The table in docs/failure-classification.md mirrors these rules row by row,
// and failure-classifier.unit.spec.ts tests each row.
import { ConsumerFailure } from './consumer-failure.js';

export type FailureClass =
  /** Restart the whole transaction (claim, work, commit) here, with backoff. */
  | { kind: 'retry-transaction'; sqlState: string; reason: string }
  /** The business fact already happened under another message id. */
  | { kind: 'business-duplicate'; sqlState: '23505'; constraint: string; reason: string }
  /** Not acknowledged: a later redelivery may succeed. */
  | { kind: 'retryable'; sqlState: string | undefined; reason: string }
  /** Park with the reason: no redelivery can succeed. */
  | { kind: 'terminal'; sqlState: string | undefined; reason: string };

interface PostgresErrorFields {
  code?: unknown;
  constraint?: unknown;
  message?: unknown;
}

const RETRY_TRANSACTION = new Map([
  ['40001', 'serialization failure'],
  ['40P01', 'deadlock detected'],
]);

/** Classes (first two characters) and codes a later attempt may get past. */
const RETRYABLE_CLASSES = new Map([
  ['08', 'connection exception'],
  ['53', 'insufficient resources'],
  ['57', 'operator intervention (shutdown, cancelled statement)'],
  ['58', 'system error'],
]);
const RETRYABLE_CODES = new Map([['55P03', 'lock not available (lock_timeout)']]);

/** Classes that no redelivery can fix: the data or the code is wrong. */
const TERMINAL_CLASSES = new Map([
  ['22', 'data exception (invalid value)'],
  ['23', 'integrity constraint violation'],
  ['42', 'syntax error or access rule violation (a bug)'],
]);

/** Node.js socket errors: the database could not be reached or the connection broke. */
const NETWORK_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/** What node-postgres says, without a code, when a connection breaks or cannot be had. */
const PG_CONNECTION_MESSAGES =
  /^Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error/;

function fieldsOf(error: unknown): PostgresErrorFields {
  return typeof error === 'object' && error !== null ? error : {};
}

function describe(error: unknown): string {
  const { message } = fieldsOf(error);
  return typeof message === 'string' ? message : String(error);
}

function classifySqlState(
  code: string,
  error: unknown,
  businessKeys: ReadonlySet<string>,
): FailureClass {
  const reason = `SQLSTATE ${code}: ${describe(error)}`;
  const retryTransaction = RETRY_TRANSACTION.get(code);
  if (retryTransaction !== undefined) return { kind: 'retry-transaction', sqlState: code, reason };
  const { constraint } = fieldsOf(error);
  if (code === '23505' && typeof constraint === 'string' && businessKeys.has(constraint)) {
    return { kind: 'business-duplicate', sqlState: code, constraint, reason };
  }
  if (RETRYABLE_CODES.has(code) || RETRYABLE_CLASSES.has(code.slice(0, 2))) {
    return { kind: 'retryable', sqlState: code, reason };
  }
  if (TERMINAL_CLASSES.has(code.slice(0, 2))) return { kind: 'terminal', sqlState: code, reason };
  // An unlisted SQLSTATE is treated as transient: redelivery is bounded by the
  // subscription's retry limit, after which the message is parked anyway.
  return { kind: 'retryable', sqlState: code, reason };
}

/**
 * Decides what a failure means.
 *
 * @param businessKeys unique constraints whose violation is a semantic duplicate
 */
export function classifyFailure(
  error: unknown,
  businessKeys: ReadonlySet<string> = new Set(),
): FailureClass {
  if (error instanceof ConsumerFailure) {
    return { kind: error.kind, sqlState: error.sqlState, reason: error.reason };
  }
  // First: a payload that fails its schema fails it on every delivery.
  if (error instanceof Error && error.name === 'ZodError') {
    return { kind: 'terminal', sqlState: undefined, reason: `invalid message: ${error.message}` };
  }
  const { code } = fieldsOf(error);
  if (typeof code === 'string' && NETWORK_ERROR_CODES.has(code)) {
    return { kind: 'retryable', sqlState: undefined, reason: `network: ${describe(error)}` };
  }
  // No SQLSTATE class starts with E; Node's errno codes (EPERM, EBUSY) do.
  if (typeof code === 'string' && /^[0-9A-DF-Z][0-9A-Z]{4}$/.test(code)) {
    return classifySqlState(code, error, businessKeys);
  }
  if (error instanceof Error && PG_CONNECTION_MESSAGES.test(error.message)) {
    return { kind: 'retryable', sqlState: undefined, reason: `connection: ${error.message}` };
  }
  return { kind: 'retryable', sqlState: undefined, reason: `unexpected error: ${describe(error)}` };
}

/** SQLSTATEs that say the server is going away or not taking connections, beyond class 08. */
const SERVER_GOING_AWAY = new Set(['57P01', '57P02', '57P03']);

/**
 * Whether the failure is a lost or refused database connection (a socket
 * error, SQLSTATE class 08, a server shutting down or starting, node-postgres's
 * own "Connection terminated"), rather than anything the request or the code
 * did. An HTTP route answers it 503: the client should send the request again.
 *
 * @example
 * isConnectionFailure(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })); // true
 */
export function isConnectionFailure(error: unknown): boolean {
  const { code } = fieldsOf(error);
  if (typeof code === 'string') {
    return NETWORK_ERROR_CODES.has(code) || code.startsWith('08') || SERVER_GOING_AWAY.has(code);
  }
  return error instanceof Error && PG_CONNECTION_MESSAGES.test(error.message);
}
