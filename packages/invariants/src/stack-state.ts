// Where a running stack is: the state file the supervisor writes when it is
// ready (`.stack/stack.json` by default). Parsed here with only the fields the
// audit needs, so a newer supervisor that adds fields still fits.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { AuditTarget } from './audit.types.js';

export const StackStateForAudit = z.object({
  gatewayUrl: z.url(),
  ports: z.looseObject({ mailSink: z.number().int().min(1).max(65_535) }),
  databases: z.looseObject({
    order: z.string().min(1),
    inventory: z.string().min(1),
    payment: z.string().min(1),
    notification: z.string().min(1),
    paymentProvider: z.string().min(1),
    eventStore: z.string().min(1),
  }),
  pid: z.number().int().positive().optional(),
});
export type StackStateForAudit = z.infer<typeof StackStateForAudit>;

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
export function auditTargetOf(state: StackStateForAudit): AuditTarget {
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
  const state = StackStateForAudit.parse(JSON.parse(text));
  if (state.pid !== undefined && !isAlive(state.pid)) {
    throw new StackNotRunningError(
      `${file} was left by a stack that is no longer running (supervisor pid ${String(state.pid)}). Start the stack first (pnpm start).`,
    );
  }
  return auditTargetOf(state);
}
