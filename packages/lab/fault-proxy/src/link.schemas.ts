// What crosses a process boundary about the fault proxy: the faults a client
// may ask for on a link, and what a link reports. Zod only, so the console's
// page and the scenario runner can import it without the socket code.
import { z } from 'zod';

/** How long a fault lasts before it clears by itself; a lab fault never outlives a forgotten scenario. */
const DurationMs = z.number().int().min(0).max(600_000);

export const LINK_FAULT_KINDS = ['latency', 'reset', 'blackhole', 'trickle', 'refuse'] as const;
export type LinkFaultKind = (typeof LINK_FAULT_KINDS)[number];

/**
 * One fault on one link.
 * - `latency`: every chunk waits `delayMs` more, in each direction.
 * - `reset`: every open connection is reset now, and each new one as soon as it is accepted.
 * - `blackhole`: connections are accepted but nothing goes through; what was sent is held and delivered when it clears.
 * - `trickle`: at most `bytesPerSecond` in each direction of each connection.
 * - `refuse`: the upstream looks down: open connections are reset and new ones refused.
 */
export const LinkFault = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('latency'),
    delayMs: z.number().int().min(1).max(30_000),
    durationMs: DurationMs,
  }),
  z.object({ kind: z.literal('reset'), durationMs: DurationMs }),
  z.object({ kind: z.literal('blackhole'), durationMs: DurationMs }),
  z.object({
    kind: z.literal('trickle'),
    bytesPerSecond: z.number().int().min(1).max(100_000_000),
    durationMs: DurationMs,
  }),
  z.object({ kind: z.literal('refuse'), durationMs: DurationMs }),
]);
export type LinkFault = z.infer<typeof LinkFault>;

/** A fault in force: when it started and when it clears by itself (ISO timestamps). */
export const ActiveLinkFault = z.intersection(
  LinkFault,
  z.object({ since: z.iso.datetime(), until: z.iso.datetime() }),
);
export type ActiveLinkFault = z.infer<typeof ActiveLinkFault>;

export const LinkStats = z.object({
  /** e.g. `order-postgres`: who talks to what through it. */
  name: z.string(),
  /** Where the proxy listens for this link; the client process is given this address. */
  listen: z.object({ host: z.string(), port: z.number().int() }),
  /** Where it forwards to. */
  upstream: z.object({ host: z.string(), port: z.number().int() }),
  openConnections: z.number().int().nonnegative(),
  /** Connections accepted since the link opened. */
  connections: z.number().int().nonnegative(),
  /** Bytes forwarded client → upstream and upstream → client. */
  bytesUp: z.number().int().nonnegative(),
  bytesDown: z.number().int().nonnegative(),
  /** Connections the link reset because of a fault (reset, refuse). */
  resets: z.number().int().nonnegative(),
  /** How many faults of each kind were applied since the link opened. */
  faultsApplied: z.record(z.enum(LINK_FAULT_KINDS), z.number().int().nonnegative()),
  active: z.array(ActiveLinkFault),
});
export type LinkStats = z.infer<typeof LinkStats>;

export const LinkList = z.object({ links: z.array(LinkStats) });
export type LinkList = z.infer<typeof LinkList>;
