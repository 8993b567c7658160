// `pnpm lineage <orderId> [--json]` and `pnpm lineage --stuck [--json]`.
import { parseArgs } from 'node:util';
import { OrderId } from '@effectively-once/contracts';

export type LineageCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'lineage'; readonly orderId: string; readonly json: boolean }
  | { readonly kind: 'stuck'; readonly json: boolean };

export const USAGE = `Usage: pnpm lineage <orderId> [--json]
       pnpm lineage --stuck [--json]

Prints an order's lineage from the running stack (pnpm start): where it waits
now, a sequence of its messages across order, inventory, payment and
notification, and the table of every message with each consumer's state,
retry count and marker, the outbox rows and the timers. --stuck lists the
stuck orders instead (it needs the stack's admin token, which it reads from
the stack's state file). Exit code 1 when the order is not found.

  --json    print the answer of the API as it came
  --stuck   the stuck orders: past a deadline, or with a message retrying, parked or blocked
`;

/** A command line that cannot be run; the message says why. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/**
 * @example
 * parseLineageArgs(['0b7c6f64-3b7e-4c39-9d7e-1f0a2f6f3a10']); // { kind: 'lineage', orderId: '0b7c…', json: false }
 */
export function parseLineageArgs(argv: readonly string[]): LineageCommand {
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  if (values.help === true) return { kind: 'help' };
  const json = values.json === true;
  if (values.stuck === true) {
    if (positionals.length > 0) throw new UsageError('--stuck takes no order id.');
    return { kind: 'stuck', json };
  }
  const [orderId, ...rest] = positionals;
  if (orderId === undefined) throw new UsageError('Name the order: pnpm lineage <orderId>.');
  if (rest.length > 0) throw new UsageError('One order at a time.');
  if (!OrderId.safeParse(orderId).success)
    throw new UsageError(`"${orderId}" is not an order id (a UUID).`);
  return { kind: 'lineage', orderId, json };
}

const OPTIONS = {
  json: { type: 'boolean' },
  stuck: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;
