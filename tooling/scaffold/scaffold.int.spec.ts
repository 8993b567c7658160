// `pnpm new` end to end, in a throwaway copy of the repository: a consumer
// generated into payment and a new service, whose files then typecheck and
// whose generated tests pass against this run's PostgreSQL; and bad input
// that writes nothing. The copy is removed after; the real tree is never written.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { scaffold } from './scaffold.js';
import { copyWorkspace } from './testing/workspace-copy.js';

const run = promisify(execFile);
/**
 * Every child is killed after this long, well inside the test's own timeout,
 * so afterAll never removes the copy under a child still running in it.
 */
const CHILD_TIMEOUT_MS = 120_000;

/** What a settled child printed: a failure shows which tsc error or test, not only `rejected`. */
function outputOf(settled: PromiseSettledResult<{ stdout: string; stderr: string }>): string {
  if (settled.status === 'fulfilled') return settled.value.stdout + settled.value.stderr;
  const failed = settled.reason as { message?: string; stdout?: string; stderr?: string };
  return [failed.message ?? String(settled.reason), failed.stdout ?? '', failed.stderr ?? ''].join(
    '\n',
  );
}

interface TestReport {
  numPassedTests: number;
  numFailedTests: number;
  testResults?: {
    assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
  }[];
}

/** The generated tests that failed, each with its first message. */
function failuresIn(report: TestReport): string[] {
  return (report.testResults ?? [])
    .flatMap((file) => file.assertionResults ?? [])
    .filter((test) => test.status === 'failed')
    .map((test) => `${test.fullName}: ${test.failureMessages?.[0] ?? ''}`);
}
const repository = fileURLToPath(new URL('../../', import.meta.url));
const copy = copyWorkspace(repository);
afterAll(() => copy.remove());

/** `pnpm new ...` in the copy, as the root script runs it. */
async function scaffoldCli(...argv: string[]) {
  try {
    const { stdout, stderr } = await run(
      'node',
      ['--import', 'tsx', 'tooling/scaffold/main.ts', ...argv],
      { cwd: copy.root, timeout: CHILD_TIMEOUT_MS },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The same in this process: what main.ts runs, without a second start of tsx. */
const scaffoldHere = (...argv: string[]) => scaffold({ root: copy.root, argv, now: new Date() });

const created = (report: string): string[] =>
  [...report.matchAll(/^created (\S+)$/gm)].map((match) => match[1] ?? '');

/** Every file of the copy's apps/, with its size and modification time. */
function fingerprint(files: readonly string[]): string {
  return files
    .map((file) => {
      const stats = statSync(path.join(copy.root, file), { throwIfNoEntry: false });
      return `${file} ${String(stats?.size)} ${String(stats?.mtimeMs)}`;
    })
    .join('\n');
}

describe('pnpm new, in a copy of the repository', () => {
  it('refuses bad input with a clear message and writes nothing', async () => {
    const { stdout } = await run(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', 'apps'],
      { cwd: repository, timeout: CHILD_TIMEOUT_MS },
    );
    const files = stdout.split('\n').filter((file) => file !== '');
    const before = fingerprint(files);

    const refusals = [
      [['consumer', 'billing', 'points', '--on', 'OrderConfirmed'], /^Unknown service "billing"/],
      [
        ['consumer', 'payment', 'points', '--on', 'OrderShipped'],
        /^Unknown event type "OrderShipped"/,
      ],
      [
        ['consumer', 'inventory', 'inventory-demand', '--on', 'OrderPlaced'],
        /^Consumer inventory-demand-v1 already exists/,
      ],
      [['service', 'Shipping'], /^Service name "Shipping" is not lower-case words/],
      [['service', 'payment'], /^apps\/payment already exists/],
    ] as const;
    for (const [argv, message] of refusals) {
      await expect(scaffoldHere(...argv)).rejects.toThrow(message);
    }
    const cli = await scaffoldCli('consumer', 'payment', 'points', '--on', 'OrderShipped');

    expect(cli).toMatchObject({ code: 1, stdout: '' });
    expect(cli.stderr).toMatch(
      /^pnpm new: Unknown event type "OrderShipped".* Nothing was written\. \(pnpm new --help for usage\)\n$/,
    );
    expect(fingerprint(files)).toBe(before);
  });

  it('generates a consumer and a service that typecheck and pass their own tests', async () => {
    const consumer = await scaffoldHere(
      'consumer',
      'payment',
      'loyalty-points',
      '--on',
      'OrderConfirmed',
      '--emit',
      'LoyaltyPointsAwarded',
    );
    const service = await scaffoldHere('service', 'shipping', '--on', 'PaymentCaptured');
    copy.linkApp('shipping');
    const generated = [...created(consumer), ...created(service)];
    const specs = generated.filter((file) => file.endsWith('.spec.ts'));
    expect(specs).toEqual([
      'apps/payment/src/loyalty-points/loyalty-points.consumer.int.spec.ts',
      'apps/shipping/src/config.unit.spec.ts',
      'apps/shipping/src/shipping/shipping.consumer.int.spec.ts',
    ]);
    expect(consumer).toContain('edited  apps/payment/src/payment-service.ts');
    // pnpm start runs what the supervisor's list of added services names.
    const added = (await import(
      pathToFileURL(path.join(copy.root, 'apps/supervisor/src/added-services.ts')).href
    )) as { addedServiceEntries: () => string[] };
    expect(added.addedServiceEntries()).toEqual(['apps/shipping/src/server.ts']);

    // Only the generated files, the edited wiring and what they import: the
    // whole repository would take minutes. Typecheck and tests run side by side.
    writeFileSync(
      path.join(copy.root, 'tsconfig.scaffold.json'),
      JSON.stringify({
        extends: './tsconfig.base.json',
        files: [
          'packages/postgres/src/testing/global-setup.ts',
          'apps/payment/src/server.ts',
          'apps/payment/src/payment-service.ts',
          'apps/supervisor/src/added-services.ts',
          ...generated.filter((file) => file.endsWith('.ts')),
        ],
      }),
    );
    const report = path.join(copy.root, 'scaffold-tests.json');
    const [typecheck, tests] = await Promise.allSettled([
      run('node', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.scaffold.json'], {
        cwd: copy.root,
        timeout: CHILD_TIMEOUT_MS,
      }),
      run(
        'node',
        [
          'node_modules/vitest/vitest.mjs',
          'run',
          '--reporter=json',
          `--outputFile=${report}`,
          ...specs,
        ],
        // The generated tests use this run's server instead of starting their own.
        {
          cwd: copy.root,
          timeout: CHILD_TIMEOUT_MS,
          env: { ...process.env, DATABASE_URL: inject('postgresAdminUrl') },
        },
      ),
    ]);

    expect({ typecheck: typecheck.status, output: outputOf(typecheck) }).toEqual({
      typecheck: 'fulfilled',
      output: '',
    });
    // A child that died before writing its report leaves none: its output says why.
    const results = (
      existsSync(report) ? JSON.parse(readFileSync(report, 'utf8')) : {}
    ) as TestReport;
    expect({ tests: tests.status, failed: failuresIn(results) }, outputOf(tests)).toEqual({
      tests: 'fulfilled',
      failed: [],
    });
    expect(results).toMatchObject({ numPassedTests: 16, numFailedTests: 0 });
    // About 30 s on a quiet 2-core machine; room for a busy one.
  }, 150_000);
});
