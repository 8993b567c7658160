// Where a running stack is: the state file the supervisor writes when it is
// ready (`.stack/stack.json` by default), parsed with the contract's schema.
import { readFile } from 'node:fs/promises';
import { StackState } from '@effectively-once/lab-stack';
import type { AuditTarget } from './audit.types.js';

/** No stack state where one was looked for, or one left by a stack that is gone. */
export class StackNotRunningError extends Error {
  override readonly name = 'StackNotRunningError';
}

/**
 * The audit target of a stack: its databases, and the mail sink on the
 * gateway's host.
 *
 * @example
 * auditTargetOf(state).mailSinkUrl // 'http://127.0.0.1:3006'
 */
export function auditTargetOf(
  state: Pick<StackState, 'gatewayUrl' | 'ports' | 'databases'>,
): AuditTarget {
  const { order, inventory, payment, notification, paymentProvider, eventStore } = state.databases;
  const mailSink = new URL(state.gatewayUrl);
  mailSink.port = String(state.ports.mailSink);
  return {
    databases: { order, inventory, payment, notification, paymentProvider, eventStore },
    mailSinkUrl: mailSink.origin,
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return error instanceof Error && 'code' in error && error.code === 'EPERM';
  }
}

/**
 * Reads the state file a running stack wrote.
 *
 * @example
 * const target = await readAuditTarget('.stack/stack.json');
 */
export async function readAuditTarget(file: string): Promise<AuditTarget> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'ENOENT') {
      throw new StackNotRunningError(
        `No running stack: ${file} does not exist. Start the stack first (pnpm start), or point STACK_STATE_FILE at its state file.`,
        { cause: error },
      );
    }
    throw error;
  }
  const state = StackState.parse(JSON.parse(text));
  if (!isAlive(state.pid)) {
    throw new StackNotRunningError(
      `${file} was left by a stack that is no longer running (supervisor pid ${String(state.pid)}). Start the stack first (pnpm start).`,
    );
  }
  return auditTargetOf(state);
}
