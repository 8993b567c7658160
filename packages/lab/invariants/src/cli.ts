// `pnpm invariants`: audits the running stack and prints one line per
// invariant. Exit code 1 when one is broken, 2 when the audit cannot run.
import { auditInvariants } from './audit-invariants.js';
import { parseCliArgs, USAGE, UsageError } from './cli/cli-args.js';
import { formatReport } from './cli/format-report.js';
import { loadCliConfig } from './config.js';
import { readAuditTarget, StackNotRunningError } from './stack-state.js';
import { refuse } from '../../../../tooling/command-line/command-line.js';

async function main(): Promise<number> {
  const options = parseCliArgs(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const config = loadCliConfig();
  const target = await readAuditTarget(config.stateFile);
  const report = await auditInvariants(
    { ...target, eventStore: config.eventStore },
    {
      scope: {
        ...(options.orderIds === undefined ? {} : { orderIds: options.orderIds }),
        ...(options.skus === undefined ? {} : { skus: options.skus }),
      },
      ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
      ...(options.timerGraceMs === undefined ? {} : { timerGraceMs: options.timerGraceMs }),
    },
  );
  process.stdout.write(
    options.json ? `${JSON.stringify(report, null, 2)}\n` : formatReport(report),
  );
  return report.holds ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) refuse('invariants', error.message);
    else if (error instanceof StackNotRunningError) process.stderr.write(`${error.message}\n`);
    else
      process.stderr.write(
        `The audit failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exitCode = 2;
  },
);
