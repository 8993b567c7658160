import { describe, expect, it } from 'vitest';
import { recordingProbe } from '../testing/recording-probe.js';
import { activeProcessingProbe, withProcessingProbe } from './processing-probe.js';

describe('withProcessingProbe', () => {
  it('makes the probe active for the whole call chain, awaits included, and only there', async () => {
    // Given a probe
    const probe = recordingProbe();
    // When code runs inside withProcessingProbe, across awaits
    const seen = await withProcessingProbe(probe, async () => {
      await Promise.resolve();
      return activeProcessingProbe();
    });
    // Then it saw the probe, and nothing outside did
    expect(seen).toBe(probe);
    expect(activeProcessingProbe()).toBeUndefined();
  });

  it('keeps concurrent call chains apart', async () => {
    // Given two probes, each installed around its own concurrent chain
    const [a, b] = [recordingProbe(), recordingProbe()];
    const seenBy = (probe: typeof a) =>
      withProcessingProbe(probe, async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return activeProcessingProbe();
      });
    // When both run interleaved
    const [seenA, seenB] = await Promise.all([seenBy(a), seenBy(b)]);
    // Then each chain saw its own
    expect(seenA).toBe(a);
    expect(seenB).toBe(b);
  });

  it('with undefined inside a probed chain runs without a probe', async () => {
    // Given a probed chain
    const probe = recordingProbe();
    // When part of it runs with undefined
    const seen = await withProcessingProbe(probe, () =>
      withProcessingProbe(undefined, () => Promise.resolve(activeProcessingProbe())),
    );
    // Then that part sees no probe
    expect(seen).toBeUndefined();
  });
});
