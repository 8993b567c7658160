import { describe, expect, it } from 'vitest';
import { recordingHooks } from '../testing/recording-hooks.js';
import { activeProcessingHooks, withProcessingHooks } from './processing-hooks.js';

describe('withProcessingHooks', () => {
  it('makes the hooks active for the whole call chain, awaits included, and only there', async () => {
    // Given hooks
    const hooks = recordingHooks();
    // When code runs inside withProcessingHooks, across awaits
    const seen = await withProcessingHooks(hooks, async () => {
      await Promise.resolve();
      return activeProcessingHooks();
    });
    // Then it saw the hooks, and nothing outside did
    expect(seen).toBe(hooks);
    expect(activeProcessingHooks()).toBeUndefined();
  });

  it('keeps concurrent call chains apart', async () => {
    // Given two sets of hooks, each installed around its own concurrent chain
    const [a, b] = [recordingHooks(), recordingHooks()];
    const seenBy = (hooks: typeof a) =>
      withProcessingHooks(hooks, async () => {
        await new Promise<void>((resolve) => setImmediate(resolve));
        return activeProcessingHooks();
      });
    // When both run interleaved
    const [seenA, seenB] = await Promise.all([seenBy(a), seenBy(b)]);
    // Then each chain saw its own
    expect(seenA).toBe(a);
    expect(seenB).toBe(b);
  });

  it('with undefined inside a hooked chain runs without hooks', async () => {
    // Given a hooked chain
    const hooks = recordingHooks();
    // When part of it runs with undefined
    const seen = await withProcessingHooks(hooks, () =>
      withProcessingHooks(undefined, () => Promise.resolve(activeProcessingHooks())),
    );
    // Then that part sees no hooks
    expect(seen).toBeUndefined();
  });
});
