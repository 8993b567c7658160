// The short soak `pnpm test` runs: every fault kind once, 150 orders at a
// steady rate, on a lab stack of its own (its own embedded PostgreSQL, which
// one fault restarts). The long one is `pnpm soak` (docs/soak.md). A failure
// prints the report with the seed; `pnpm soak --short --seed <n>` replays it.
import { fileURLToPath } from 'node:url';
import {
  DRAIN_TIMEOUT_MS,
  SHORT_SOAK,
  faultInjectors,
  formatSoakReport,
  runSoak,
  soakFailures,
} from '@effectively-once/soak';
import { describe, expect, it } from 'vitest';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Fixed, so a CI failure names a campaign anyone can replay; `SOAK_SEED` picks another. */
const SEED = Number(process.env['SOAK_SEED'] ?? 20_261_201);

describe('the short soak', () => {
  it(
    'ends every order, loses nothing, breaks no invariant and leaves nothing stuck under every fault kind',
    { timeout: 15 * 60_000 },
    async () => {
      const lines: string[] = [];
      const result = await runSoak({
        seed: SEED,
        ...SHORT_SOAK,
        profile: 'short',
        injectors: faultInjectors(),
        drainTimeoutMs: DRAIN_TIMEOUT_MS,
        repoRoot: REPO_ROOT,
        // The soak's stack owns its PostgreSQL (a fault restarts it), whatever the e2e run uses.
        env: { ...process.env, DATABASE_URL: '' },
        log: (line) => lines.push(line),
      });
      const report = `${formatSoakReport(result, 'e2e')}\nProgress:\n${lines.join('\n')}`;

      expect(soakFailures(result), report).toEqual([]);
      expect(result.unavailableFaults, report).toEqual([]);
      expect(new Set(result.faults.map((record) => record.fault.kind)).size, report).toBe(
        faultInjectors().length,
      );
      expect(result.ends.confirmed, report).toBeGreaterThan(0);
      expect(result.posts.placed, report).toBe(SHORT_SOAK.orders);
    },
  );
});
