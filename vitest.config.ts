import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Unit and integration files run at least two at a time. Vitest's default,
// one fewer than the cores, is a single worker on a 2-core machine, and an
// integration file spends much of its time waiting on PostgreSQL (commits,
// lock waits, timers) with the second core idle. On this project's 2-core CI
// machine, unit + integration took 528 s with two workers against 715 s with
// one (same revision, same load). Each file uses databases of its own.
const FILE_WORKERS = Math.max(2, availableParallelism() - 1);

// Unit and integration files share each worker's loaded modules (isolate:
// false) instead of loading the whole dependency graph again for every file.
// Measured on this 2-core machine, same revision: the two projects took 424 s
// of wall time isolated and 165 s shared; the tests themselves were the same
// ~210 s. It holds because no file relies on fresh module state: each test
// database and pool is made and closed by its own file, hooks are installed
// per call, and a shuffled file order passed as well. End-to-end files stay
// isolated: they gained ~20 s out of ~550 s, not worth the coupling.

// Three projects, by file name: `*.unit.spec.ts` is pure code and needs nothing;
// `*.int.spec.ts` talks to a real PostgreSQL server, started once per run by
// the global setup (embedded, or DATABASE_URL); `e2e/**/*.e2e.spec.ts` drives
// the whole stack, started once per run by the supervisor. See docs/testing.md.
export default defineConfig({
  test: {
    reporters: ['default', './tooling/vitest-summary-reporter.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          maxWorkers: FILE_WORKERS,
          isolate: false,
          include: [
            '{apps,packages}/{*,lab/*}/{src,examples}/**/*.unit.spec.ts',
            'tooling/**/*.unit.spec.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          maxWorkers: FILE_WORKERS,
          isolate: false,
          include: [
            '{apps,packages}/{*,lab/*}/{src,examples}/**/*.int.spec.ts',
            'tooling/**/*.int.spec.ts',
          ],
          globalSetup: ['./packages/postgres/src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.e2e.spec.ts'],
          globalSetup: ['./e2e/support/global-setup.ts'],
          // Files run one after another: a file that starts a stack of its own
          // must not compete with the shared one for two cores.
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
