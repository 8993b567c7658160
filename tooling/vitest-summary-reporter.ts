// Prints one plain closing line, "vitest: N passed, N failed, N skipped", that
// CI systems and people can read without parsing Vitest's own summary.
import type { Reporter, TestModule } from 'vitest/node';

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const counts = { passed: 0, failed: 0, skipped: 0 };
    for (const testModule of testModules) {
      for (const test of testModule.children.allTests()) {
        const { state } = test.result();
        if (state === 'passed' || state === 'failed' || state === 'skipped') counts[state]++;
      }
    }
    process.stdout.write(
      `vitest: ${String(counts.passed)} passed, ${String(counts.failed)} failed, ${String(counts.skipped)} skipped\n`,
    );
  }
}
