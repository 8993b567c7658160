// `pnpm lineage <orderId>` / `pnpm lineage --stuck`: asks the running stack's
// gateway (found through the state file the supervisor writes) and prints the
// answer for a terminal. Exit code 1 when the order is not found, 2 when the
// command cannot run.
import { readFile } from 'node:fs/promises';
import { OrderLineage, StuckOrderList } from '@effectively-once/contracts';
import { StackState } from '@effectively-once/lab-stack';
import { parseLineageArgs, USAGE, UsageError, type LineageCommand } from './cli-args.js';
import { loadLineageCliConfig } from './config.js';
import { OrderTrace } from '../api/console.api.js';
import { formatLineage, formatStuckOrders } from './format-lineage.js';
import { formatTrace } from './format-trace.js';
import { refuse } from '../../../../../tooling/command-line/command-line.js';

class CannotRun extends Error {
  override readonly name = 'CannotRun';
}

async function readStack(stateFile: string): Promise<StackState> {
  try {
    return StackState.parse(JSON.parse(await readFile(stateFile, 'utf8')));
  } catch (error) {
    throw new CannotRun(
      `No running stack described at ${stateFile}: start one (pnpm start), or point STACK_STATE_FILE at its state file.`,
      { cause: error },
    );
  }
}

async function get(url: string, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return await fetch(url, { headers: { accept: 'application/json', ...headers } });
  } catch (error) {
    throw new CannotRun(
      `The stack's gateway does not answer at ${url}: is the stack still running?`,
      { cause: error },
    );
  }
}

async function failure(response: Response): Promise<CannotRun> {
  return new CannotRun(
    `${response.url} answered ${String(response.status)}: ${await response.text()}`,
  );
}

async function run(
  command: Exclude<LineageCommand, { kind: 'help' }>,
  stack: StackState,
): Promise<number> {
  if (command.kind === 'stuck') {
    if (stack.adminToken === undefined) {
      throw new CannotRun(
        'The stuck list is an operator route, and this stack has no admin token: start it with ADMIN_TOKEN set, or in lab mode.',
      );
    }
    const response = await get(`${stack.gatewayUrl}/api/admin/stuck`, {
      authorization: `Bearer ${stack.adminToken}`,
    });
    if (!response.ok) throw await failure(response);
    const list = StuckOrderList.parse(await response.json());
    process.stdout.write(
      command.json ? `${JSON.stringify(list, null, 2)}\n` : formatStuckOrders(list),
    );
    return 0;
  }
  const response = await get(`${stack.gatewayUrl}/api/orders/${command.orderId}/lineage`);
  if (response.status === 404) {
    process.stderr.write(`No order ${command.orderId} in this stack.\n`);
    return 1;
  }
  if (!response.ok) throw await failure(response);
  const lineage = OrderLineage.parse(await response.json());
  if (command.json) {
    process.stdout.write(`${JSON.stringify(lineage, null, 2)}\n`);
    return 0;
  }
  process.stdout.write(formatLineage(lineage));
  process.stdout.write(`\n${await traceLines(stack.gatewayUrl, command.orderId)}`);
  return 0;
}

/** The trace id and where to see it; the lineage stands without them when the console cannot say. */
async function traceLines(gatewayUrl: string, orderId: string): Promise<string> {
  const response = await get(`${gatewayUrl}/api/console/orders/${orderId}/trace`);
  if (!response.ok) return `Trace: unknown (${response.url} answered ${String(response.status)})\n`;
  return formatTrace(OrderTrace.parse(await response.json()), gatewayUrl);
}

async function main(): Promise<number> {
  const command = parseLineageArgs(process.argv.slice(2));
  if (command.kind === 'help') {
    process.stdout.write(USAGE);
    return 0;
  }
  const stack = await readStack(loadLineageCliConfig().stateFile);
  return run(command, stack);
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof UsageError) refuse('lineage', error.message);
    else if (error instanceof CannotRun) process.stderr.write(`${error.message}\n`);
    else
      process.stderr.write(
        `pnpm lineage failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
    process.exitCode = 2;
  },
);
