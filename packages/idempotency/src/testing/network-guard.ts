// Fails a consumer's work that opens an outbound network connection (HTTP,
// SMTP, fetch, anything over TCP) while processOnce's transaction is open. Such
// a transaction lives as long as the remote server makes it: it holds its row
// locks, and it holds back the snapshot horizon that the embedded event store
// waits on before it delivers anything newer. See ADR 0012.
//
// It patches `net.Socket.prototype.connect`, the one place every Node client
// (http, https, undici's fetch, nodemailer, tls) opens a socket, and checks the
// mark that attemptOnce puts around the work. Unix-domain sockets are local IPC,
// not a network call, and are never flagged.
import { AssertionError } from 'node:assert';
import { Socket } from 'node:net';
import { currentTransactionScope, type TransactionScope } from '../inside-transaction.js';
import { connectTarget } from './connect-target.js';

/** Where the rule is explained; every violation's message points there. */
export const NETWORK_GUARD_DOC =
  'docs/idempotent-consumer.md#never-hold-the-transaction-across-a-network-call';

/** A TCP endpoint the work may connect to: `host` omitted means any host on that port. */
export interface AllowedTarget {
  host?: string;
  port: number;
}

export interface NetworkGuardOptions {
  /**
   * Endpoints allowed inside the transaction, as targets or URLs: the test's
   * PostgreSQL server, whose pools may open a connection while work runs.
   */
  allow?: readonly (AllowedTarget | string)[];
}

export interface NetworkViolation extends TransactionScope {
  /** `host:port` the work tried to reach. */
  target: string;
  message: string;
}

export interface NetworkGuard {
  /** Every connection attempted inside a transaction since install, oldest first. */
  readonly violations: readonly NetworkViolation[];
  /** Throws an AssertionError with the first violation's message, if there was any. */
  assertNone(): void;
  /** Forgets the violations so far: one test's mistake does not fail the next. */
  clear(): void;
  /** Restores the original `connect`; a second call does nothing. */
  uninstall(): void;
}

/** Thrown in place of the connection, so the call fails where it was made. */
export class NetworkInsideTransactionError extends Error {
  override readonly name: string = 'NetworkInsideTransactionError';
}

let installed = false;

/**
 * Installs the guard until `uninstall()`: one at a time per process. The
 * connection is refused with a {@link NetworkInsideTransactionError} and the
 * violation is recorded, because a client may wrap the error (fetch reports
 * "fetch failed"): `assertNone()` after each test shows the plain message.
 *
 * @example
 * const guard = guardNetworkInsideTransactions({ allow: [databaseUrl] });
 * afterEach(() => guard.assertNone());
 * afterAll(() => guard.uninstall());
 */
export function guardNetworkInsideTransactions(options: NetworkGuardOptions = {}): NetworkGuard {
  if (installed) throw new Error('A network guard is already installed in this process.');
  installed = true;
  const allowed = (options.allow ?? []).map(toAllowedTarget);
  const violations: NetworkViolation[] = [];
  // Kept unbound on purpose: it is put back as is, and called on the socket by Reflect.apply.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = Socket.prototype.connect;
  const guarded = function guardedConnect(this: Socket, ...args: unknown[]): Socket {
    const scope = currentTransactionScope();
    const target = scope === undefined ? undefined : connectTarget(args);
    if (scope !== undefined && target?.kind === 'tcp' && !isAllowed(allowed, target)) {
      const violation = violationOf(scope, `${target.host}:${String(target.port)}`);
      violations.push(violation);
      throw new NetworkInsideTransactionError(violation.message);
    }
    return Reflect.apply(original, this, args) as Socket;
  } as typeof original;
  Socket.prototype.connect = guarded;
  return {
    violations,
    assertNone() {
      const [first] = violations;
      if (first === undefined) return;
      const more = violations.length > 1 ? ` (and ${String(violations.length - 1)} more)` : '';
      throw new AssertionError({ message: `${first.message}${more}` });
    },
    clear() {
      violations.length = 0;
    },
    uninstall() {
      if (Socket.prototype.connect !== guarded) return;
      Socket.prototype.connect = original;
      installed = false;
    },
  };
}

function violationOf(scope: TransactionScope, target: string): NetworkViolation {
  const message =
    `network call inside processOnce's transaction for consumer ${scope.consumer} ` +
    `(message ${scope.messageId}): a connection to ${target} was opened while the marker's ` +
    `transaction was open. Move it out (see ${NETWORK_GUARD_DOC})`;
  return { ...scope, target, message };
}

function toAllowedTarget(entry: AllowedTarget | string): AllowedTarget {
  if (typeof entry !== 'string') return entry;
  const url = new URL(entry);
  return { host: url.hostname, port: Number(url.port === '' ? defaultPort(url) : url.port) };
}

function defaultPort(url: URL): number {
  if (url.protocol === 'postgres:' || url.protocol === 'postgresql:') return 5432;
  return url.protocol === 'https:' ? 443 : 80;
}

function isAllowed(
  allowed: readonly AllowedTarget[],
  target: { host: string; port: number },
): boolean {
  return allowed.some(
    (entry) =>
      entry.port === target.port && (entry.host === undefined || entry.host === target.host),
  );
}
