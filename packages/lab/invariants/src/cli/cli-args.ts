// `pnpm invariants [--order <id>]... [--sku <sku>]... [--json] [--settle-ms N] [--timer-grace-ms N]`
import { parseArgs } from 'node:util';
import { OrderId, Sku } from '@effectively-once/contracts';
import { z } from 'zod';

const CliArgs = z.object({
  order: z.array(OrderId).optional(),
  sku: z.array(Sku).optional(),
  json: z.boolean().default(false),
  'settle-ms': z.coerce.number().int().min(0).max(3_600_000).optional(),
  'timer-grace-ms': z.coerce.number().int().min(0).max(3_600_000).optional(),
  help: z.boolean().default(false),
});

export interface CliOptions {
  readonly orderIds: readonly string[] | undefined;
  readonly skus: readonly string[] | undefined;
  readonly json: boolean;
  readonly settleMs: number | undefined;
  readonly timerGraceMs: number | undefined;
  readonly help: boolean;
}

export const USAGE = `Usage: pnpm invariants [--order <id>]... [--sku <sku>]... [--json] [--settle-ms <ms>]
                       [--timer-grace-ms <ms>]

Audits the running stack (started with pnpm start): every database, the event
store and the mail sink. Exit code 1 when an invariant is broken, 0 otherwise.

  --order <id>      judge only this order (repeat for more); default: every order
  --sku <sku>       judge only this SKU (repeat); default: the orders' SKUs, or every SKU
  --json            print the report as JSON
  --settle-ms <ms>  how long a missing effect counts as still on its way (default 30000)
  --timer-grace-ms <ms>
                    how late a saga timer may fire before it is overdue (default 5000)
`;

/** A command line the auditor cannot run with; the message says why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * @example
 * parseCliArgs(['--order', orderId, '--json']) // { orderIds: [orderId], json: true, ... }
 */
export function parseCliArgs(argv: readonly string[]): CliOptions {
  let values: unknown;
  try {
    values = parseArgs({
      args: [...argv],
      options: {
        order: { type: 'string', multiple: true },
        sku: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        'settle-ms': { type: 'string' },
        'timer-grace-ms': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const parsed = CliArgs.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `--${String(issue.path[0] ?? '')}: ${issue.message}`,
    );
    throw new UsageError(problems.join('; '));
  }
  const { order, sku, json, help } = parsed.data;
  return {
    orderIds: order,
    skus: sku,
    json,
    settleMs: parsed.data['settle-ms'],
    timerGraceMs: parsed.data['timer-grace-ms'],
    help,
  };
}
