import { availableParallelism } from 'node:os';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
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

// The longest files start first. Without Vitest's results cache (a clean CI
// clone has none) files run by project name, integration before unit, then
// largest first; the longest unit file (70-100 s) started last and ran alone
// for the last ~50 s of the phase while the other worker had nothing left.
// Listed by hand from a run's durations: a stale entry only costs time, never
// a result. A run asked to shuffle (`--sequence.shuffle`) keeps Vitest's own
// random sequencer, which any configured sequencer would replace.
const LONGEST_FILES = [
  // lab:begin
  'tooling/remove-lab/template-without-lab.unit.spec.ts',
  // lab:end
  'tooling/scaffold/scaffold.int.spec.ts',
];

class LongestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const index = LONGEST_FILES.findIndex((name) => file.moduleId.endsWith(`/${name}`));
      return index === -1 ? LONGEST_FILES.length : index;
    };
    // Array.prototype.sort is stable: the rest keep Vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

// Three projects, by file name: `*.unit.spec.ts` is pure code and needs nothing;
// `*.int.spec.ts` talks to a real PostgreSQL server, started once per run by
// the global setup (embedded, or DATABASE_URL); `e2e/**/*.e2e.spec.ts` drives
// the whole stack, started once per run by the supervisor. See docs/testing.md.
export default defineConfig({
  test: {
    reporters: ['default', './tooling/vitest-summary-reporter.ts'],
    sequence: process.argv.some((arg) => arg.startsWith('--sequence.shuffle'))
      ? {}
      : { sequencer: LongestFilesFirst },
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
