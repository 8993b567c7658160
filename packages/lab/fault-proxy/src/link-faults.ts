// The fault model of one link, pure: which faults are in force at a time, what
// happens to a new connection, and when and how a chunk of bytes goes on.
// Time comes in as epoch milliseconds; nothing here reads the clock.
import type { LinkFault, LinkFaultKind } from './link.schemas.js';

/** A fault in force from `since` until `until` (epoch ms). */
export type TimedFault = LinkFault & { readonly since: number; readonly until: number };

/** At most one fault per kind: applying a kind again replaces it (a new delay, a new end). */
export type LinkFaults = readonly TimedFault[];

export const NO_FAULTS: LinkFaults = [];

/** Trickled bytes leave in slices this long, so a big chunk flows instead of jumping at the end. */
export const TRICKLE_SLICE_MS = 100;

export function withFault(faults: LinkFaults, fault: LinkFault, now: number): LinkFaults {
  const timed: TimedFault = { ...fault, since: now, until: now + fault.durationMs };
  return [...faults.filter((active) => active.kind !== fault.kind), timed];
}

export function inForce(faults: LinkFaults, now: number): LinkFaults {
  return faults.filter((fault) => fault.until > now);
}

function find<Kind extends LinkFaultKind>(
  faults: LinkFaults,
  kind: Kind,
  now: number,
): Extract<TimedFault, { kind: Kind }> | undefined {
  return faults.find(
    (fault): fault is Extract<TimedFault, { kind: Kind }> =>
      fault.kind === kind && fault.until > now,
  );
}

/** Whether applying this fault resets the connections already open. */
export function resetsOpenConnections(fault: LinkFault): boolean {
  return fault.kind === 'reset' || fault.kind === 'refuse';
}

/**
 * What becomes of a connection a client opens now. `refuse` wins over
 * `reset`: the upstream looks down, so there is nothing to reset.
 */
export function connectionFate(faults: LinkFaults, now: number): 'refuse' | 'reset' | 'accept' {
  if (find(faults, 'refuse', now) !== undefined) return 'refuse';
  if (find(faults, 'reset', now) !== undefined) return 'reset';
  return 'accept';
}

/** What to do with the chunk at the head of a direction's queue. */
export type ChunkStep =
  /** A blackhole: hold it, look again at `until` (or when the faults change). */
  | { readonly type: 'hold'; readonly until: number }
  /** Latency: wait until `at` (its arrival plus the delay), then look again. */
  | { readonly type: 'wait'; readonly at: number }
  /** Forward `bytes` of it now; then pause `pauseMs` before the next slice (trickle). */
  | { readonly type: 'send'; readonly bytes: number; readonly pauseMs: number };

/**
 * The next step for a chunk of `length` bytes that arrived at `arrivedAt`.
 * Latency counts from arrival, so back-to-back chunks are delayed together,
 * not one after the other: a slow link, not a slower one per message.
 */
export function nextChunkStep(input: {
  faults: LinkFaults;
  now: number;
  arrivedAt: number;
  length: number;
}): ChunkStep {
  const { faults, now, arrivedAt, length } = input;
  const blackhole = find(faults, 'blackhole', now);
  if (blackhole !== undefined) return { type: 'hold', until: blackhole.until };
  const latency = find(faults, 'latency', now);
  if (latency !== undefined && arrivedAt + latency.delayMs > now) {
    return { type: 'wait', at: arrivedAt + latency.delayMs };
  }
  const trickle = find(faults, 'trickle', now);
  if (trickle === undefined) return { type: 'send', bytes: length, pauseMs: 0 };
  const perSlice = Math.max(1, Math.floor((trickle.bytesPerSecond * TRICKLE_SLICE_MS) / 1000));
  const bytes = Math.min(length, perSlice);
  return { type: 'send', bytes, pauseMs: Math.ceil((bytes * 1000) / trickle.bytesPerSecond) };
}

/** The next time a fault clears by itself, if any is in force: when the link must look again. */
export function nextExpiry(faults: LinkFaults, now: number): number | undefined {
  const ends = inForce(faults, now).map((fault) => fault.until);
  return ends.length === 0 ? undefined : Math.min(...ends);
}
