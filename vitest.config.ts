import { defineConfig } from 'vitest/config';

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
          include: [
            '{apps,packages}/*/{src,examples}/**/*.unit.spec.ts',
            'tooling/**/*.unit.spec.ts',
          ],
        },
      },
      {
        test: {
          name: 'integration',
          include: [
            '{apps,packages}/*/{src,examples}/**/*.int.spec.ts',
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
