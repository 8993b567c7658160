import { describe, expect, it } from 'vitest';
import {
  connectionFate,
  inForce,
  nextChunkStep,
  nextExpiry,
  NO_FAULTS,
  resetsOpenConnections,
  withFault,
  type LinkFaults,
} from './link-faults.js';
import type { LinkFault } from './link.schemas.js';

const T0 = 1_000_000;
const given = (...faults: LinkFault[]): LinkFaults =>
  faults.reduce<LinkFaults>((all, fault) => withFault(all, fault, T0), NO_FAULTS);
const chunk = (faults: LinkFaults, now: number, arrivedAt = now, length = 1_000) =>
  nextChunkStep({ faults, now, arrivedAt, length });

describe('a link without faults', () => {
  it('when a client connects, then it is accepted', () => {
    expect(connectionFate(NO_FAULTS, T0)).toBe('accept');
  });

  it('when a chunk arrives, then all of it is forwarded at once', () => {
    expect(chunk(NO_FAULTS, T0)).toEqual({ type: 'send', bytes: 1_000, pauseMs: 0 });
  });
});

describe('applying faults', () => {
  it('given a fault of a kind, when the same kind is applied again, then the new one replaces it', () => {
    const faults = withFault(
      given({ kind: 'latency', delayMs: 100, durationMs: 5_000 }),
      { kind: 'latency', delayMs: 300, durationMs: 1_000 },
      T0 + 500,
    );
    expect(faults).toEqual([
      { kind: 'latency', delayMs: 300, durationMs: 1_000, since: T0 + 500, until: T0 + 1_500 },
    ]);
  });

  it('given faults of two kinds, then both are in force together', () => {
    const faults = given(
      { kind: 'latency', delayMs: 100, durationMs: 5_000 },
      { kind: 'refuse', durationMs: 5_000 },
    );
    expect(inForce(faults, T0 + 1).map((fault) => fault.kind)).toEqual(['latency', 'refuse']);
  });

  it('given a fault, when its duration has passed, then it is no longer in force', () => {
    const faults = given({ kind: 'reset', durationMs: 2_000 });
    expect(inForce(faults, T0 + 1_999)).toHaveLength(1);
    expect(inForce(faults, T0 + 2_000)).toEqual([]);
    expect(connectionFate(faults, T0 + 2_000)).toBe('accept');
  });

  it('then only reset and refuse reset the connections already open', () => {
    expect(resetsOpenConnections({ kind: 'reset', durationMs: 0 })).toBe(true);
    expect(resetsOpenConnections({ kind: 'refuse', durationMs: 1 })).toBe(true);
    expect(resetsOpenConnections({ kind: 'blackhole', durationMs: 1 })).toBe(false);
    expect(resetsOpenConnections({ kind: 'latency', delayMs: 1, durationMs: 1 })).toBe(false);
    expect(resetsOpenConnections({ kind: 'trickle', bytesPerSecond: 1, durationMs: 1 })).toBe(
      false,
    );
  });

  it('given faults that clear at different times, then the link looks again at the earliest', () => {
    const faults = given(
      { kind: 'reset', durationMs: 3_000 },
      { kind: 'blackhole', durationMs: 1_000 },
    );
    expect(nextExpiry(faults, T0)).toBe(T0 + 1_000);
    expect(nextExpiry(faults, T0 + 1_000)).toBe(T0 + 3_000);
    expect(nextExpiry(faults, T0 + 3_000)).toBeUndefined();
  });
});

describe('new connections', () => {
  it('given a reset window, when a client connects, then it is reset', () => {
    expect(connectionFate(given({ kind: 'reset', durationMs: 1_000 }), T0)).toBe('reset');
  });

  it('given refuse and reset at once, when a client connects, then it is refused: the upstream looks down', () => {
    const faults = given(
      { kind: 'reset', durationMs: 1_000 },
      { kind: 'refuse', durationMs: 1_000 },
    );
    expect(connectionFate(faults, T0)).toBe('refuse');
  });

  it('given a blackhole, latency or trickle, when a client connects, then it is accepted', () => {
    const faults = given(
      { kind: 'blackhole', durationMs: 1_000 },
      { kind: 'latency', delayMs: 10, durationMs: 1_000 },
      { kind: 'trickle', bytesPerSecond: 10, durationMs: 1_000 },
    );
    expect(connectionFate(faults, T0)).toBe('accept');
  });
});

describe('chunks', () => {
  it('given latency, when a chunk arrives, then it waits the delay from its arrival', () => {
    const faults = given({ kind: 'latency', delayMs: 200, durationMs: 10_000 });
    expect(chunk(faults, T0 + 50, T0 + 50)).toEqual({ type: 'wait', at: T0 + 250 });
    expect(chunk(faults, T0 + 250, T0 + 50)).toEqual({ type: 'send', bytes: 1_000, pauseMs: 0 });
  });

  it('given latency, when a chunk has queued behind others longer than the delay, then it goes at once', () => {
    const faults = given({ kind: 'latency', delayMs: 200, durationMs: 10_000 });
    expect(chunk(faults, T0 + 900, T0 + 100)).toMatchObject({ type: 'send' });
  });

  it('given a blackhole, when a chunk arrives, then it is held until the blackhole clears', () => {
    const faults = given({ kind: 'blackhole', durationMs: 5_000 });
    expect(chunk(faults, T0 + 10)).toEqual({ type: 'hold', until: T0 + 5_000 });
    expect(chunk(faults, T0 + 5_000, T0 + 10)).toEqual({ type: 'send', bytes: 1_000, pauseMs: 0 });
  });

  it('given a blackhole and latency, then the blackhole wins: nothing goes through', () => {
    const faults = given(
      { kind: 'latency', delayMs: 10, durationMs: 10_000 },
      { kind: 'blackhole', durationMs: 1_000 },
    );
    expect(chunk(faults, T0 + 500, T0)).toEqual({ type: 'hold', until: T0 + 1_000 });
  });

  it('given a trickle of 1000 B/s, when 1000 bytes arrive, then they leave 100 at a time, 100 ms apart', () => {
    const faults = given({ kind: 'trickle', bytesPerSecond: 1_000, durationMs: 10_000 });
    expect(chunk(faults, T0)).toEqual({ type: 'send', bytes: 100, pauseMs: 100 });
  });

  it('given a trickle slower than 10 B/s, then one byte leaves at a time', () => {
    const faults = given({ kind: 'trickle', bytesPerSecond: 4, durationMs: 10_000 });
    expect(chunk(faults, T0, T0, 50)).toEqual({ type: 'send', bytes: 1, pauseMs: 250 });
  });

  it('given a trickle, when the chunk is smaller than a slice, then it leaves whole and pauses for its own size', () => {
    const faults = given({ kind: 'trickle', bytesPerSecond: 1_000, durationMs: 10_000 });
    expect(chunk(faults, T0, T0, 20)).toEqual({ type: 'send', bytes: 20, pauseMs: 20 });
  });
});
