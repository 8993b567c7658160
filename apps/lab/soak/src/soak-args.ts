// The command line of `pnpm soak`, parsed into options or a clear refusal.
import { randomInt } from 'node:crypto';
import { z } from 'zod';

export const SOAK_USAGE = `Usage: pnpm soak [--seed <n>] [--orders <n>] [--rate <orders/s>] [--fault-every <ms>] [--short] [--no-docs]

  --seed         replays a campaign (printed at the start of every soak); random by default
  --orders       orders to place (1000; 150 with --short)
  --rate         orders per second, steady (3)
  --fault-every  mean time between faults in ms (8000; with --short every kind strikes once)
  --short        the version \`pnpm test\` runs: short outages, every fault kind once
  --no-docs      print the report only; by default it replaces the soak section of docs/soak.md
`;

const Args = z.object({
  seed: z.coerce
    .number()
    .int()
    .min(0)
    .max(2 ** 31 - 1)
    .optional(),
  orders: z.coerce.number().int().min(1).max(100_000).optional(),
  rate: z.coerce.number().positive().max(200).optional(),
  'fault-every': z.coerce.number().int().min(100).optional(),
  short: z.boolean(),
  'no-docs': z.boolean(),
  help: z.boolean(),
});

export interface SoakArgs {
  readonly seed: number;
  readonly orders: number;
  readonly ratePerSecond: number;
  readonly faultEveryMs: number;
  readonly profile: 'long' | 'short';
  readonly drainTimeoutMs: number;
  readonly writeDocs: boolean;
}

export const SHORT_SOAK = { orders: 150, ratePerSecond: 5, faultEveryMs: 60_000 } as const;
/**
 * 3 orders/s: a lab stack takes one message at a time per consumer process,
 * and on this 2-core machine completes about 3 orders/s while faults strike;
 * faster, the backlog grows for the whole run and the deadlines cancel
 * orders for the queue, not for a fault.
 */
export const LONG_SOAK = { orders: 1_000, ratePerSecond: 3, faultEveryMs: 8_000 } as const;
/** Past the order's completeBy deadline (5 min by default) every order has ended, or something is stuck. */
export const DRAIN_TIMEOUT_MS = 6 * 60_000;

export type ParsedSoakArgs =
  { kind: 'run'; options: SoakArgs } | { kind: 'help' } | { kind: 'error'; message: string };

export function parseSoakArgs(values: Record<string, unknown>): ParsedSoakArgs {
  const parsed = Args.safeParse(values);
  if (!parsed.success) {
    return {
      kind: 'error',
      message: parsed.error.issues
        .map((issue) => `--${issue.path.join('.')}: ${issue.message}`)
        .join('\n'),
    };
  }
  const args = parsed.data;
  if (args.help) return { kind: 'help' };
  const defaults = args.short ? SHORT_SOAK : LONG_SOAK;
  return {
    kind: 'run',
    options: {
      seed: args.seed ?? randomInt(0, 2 ** 31 - 1),
      orders: args.orders ?? defaults.orders,
      ratePerSecond: args.rate ?? defaults.ratePerSecond,
      faultEveryMs: args['fault-every'] ?? defaults.faultEveryMs,
      profile: args.short ? 'short' : 'long',
      drainTimeoutMs: DRAIN_TIMEOUT_MS,
      writeDocs: !args['no-docs'],
    },
  };
}
