// What one span costs, in one process, with tracing off and on: the kit's span
// paths as the services run them, and a Kysely transaction under the `pg`
// instrumentation against the embedded PostgreSQL. CPU time (process.cpuUsage)
// over many iterations, the median of several runs: steadier than wall time on
// a shared machine. Each mode runs in a child process of its own, the traced one
// started as the supervisor starts a service (`--import` the register, spans
// exported as OTLP/JSON to a receiver this process runs and counts).
//
//   node --import tsx packages/service-kit/bench/span-cost.bench.ts [--modes off,on] [--runs 7]
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createDatabase, startPostgres } from '@effectively-once/postgres';
import { runSpanCases, type CaseResult } from './span-cases.js';

const REGISTER = fileURLToPath(new URL('../src/tracing/register.ts', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/**
 * The traced modes: `on` as the stack runs (exported with the console's batch
 * sizes); `unsampled` records no span: the instrumentations still wrap every
 * statement and carry the context, but nothing is recorded or exported;
 * `on-500ms` exports every half second rather than every 5 s (the SDK's
 * default), so that a span is garbage sooner.
 */
const MODE_ENV: Record<string, NodeJS.ProcessEnv> = {
  on: {},
  unsampled: { OTEL_TRACES_SAMPLER: 'always_off' },
  'on-500ms': { OTEL_BSP_SCHEDULE_DELAY: '500' },
  'on-100ms': { OTEL_BSP_SCHEDULE_DELAY: '100' },
};

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1
    ? (sorted[Math.floor(middle)] ?? Number.NaN)
    : ((sorted[middle - 1] ?? Number.NaN) + (sorted[middle] ?? Number.NaN)) / 2;
}

interface ReceivedCounts {
  spans: number;
  byName: Map<string, number>;
}

/** An OTLP/HTTP JSON receiver that only counts what it is sent. */
function startReceiver(counts: ReceivedCounts): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans?: { scopeSpans?: { spans?: { name: string }[] }[] }[];
      };
      for (const resource of body.resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) {
          for (const span of scope.spans ?? []) {
            counts.spans += 1;
            counts.byName.set(span.name, (counts.byName.get(span.name) ?? 0) + 1);
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') throw new Error('no port');
      resolve({ server, url: `http://127.0.0.1:${String(address.port)}/v1/traces` });
    });
  });
}

function runChild(input: {
  mode: string;
  databaseUrl: string;
  receiverUrl: string;
  runs: number;
  only: string | undefined;
  profileDir: string | undefined;
}): Promise<CaseResult[]> {
  const traced = input.mode !== 'off';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SPAN_COST_CHILD: input.mode,
    SPAN_COST_DATABASE_URL: input.databaseUrl,
    SPAN_COST_RUNS: String(input.runs),
    ...(input.only === undefined ? {} : { SPAN_COST_ONLY: input.only }),
  };
  if (traced) {
    env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] = input.receiverUrl;
    env['OTEL_EXPORTER_OTLP_PROTOCOL'] = 'http/json';
    env['OTEL_SERVICE_NAME'] = 'span-cost';
    env['OTEL_BSP_MAX_EXPORT_BATCH_SIZE'] = '2048';
    env['OTEL_BSP_MAX_QUEUE_SIZE'] = '8192';
    Object.assign(env, MODE_ENV[input.mode]);
  } else {
    env['OTEL_SDK_DISABLED'] = 'true';
  }
  const profile =
    input.profileDir === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', input.profileDir];
  const args = [...profile, '--import', 'tsx', ...(traced ? ['--import', REGISTER] : []), SELF];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8');
    });
    child.on('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`${input.mode} child exited ${String(code)}`));
        return;
      }
      const line = out.trim().split('\n').at(-1) ?? '[]';
      resolve(JSON.parse(line) as CaseResult[]);
    });
  });
}

async function parent(): Promise<void> {
  const { values } = parseArgs({
    options: {
      modes: { type: 'string', default: 'off,on' },
      runs: { type: 'string', default: '7' },
      // Only the cases whose name contains this text.
      only: { type: 'string' },
      // Writes each child's V8 CPU profile into this directory.
      profile: { type: 'string' },
    },
  });
  const modes = values.modes.split(',');
  const counts: ReceivedCounts = { spans: 0, byName: new Map() };
  const receiver = await startReceiver(counts);
  const server = await startPostgres();
  try {
    const databaseUrl = await createDatabase(server.adminUrl, 'span_cost');
    // A mode named more than once (off,on,off,on) runs a child each time, in
    // that order; its figure is the median of its children's medians, so that
    // the machine's load over the run weighs on every mode alike.
    const results = new Map<string, CaseResult[][]>();
    for (const mode of modes) {
      const before = counts.spans;
      const cases = await runChild({
        mode,
        databaseUrl,
        receiverUrl: receiver.url,
        runs: Number(values.runs),
        only: values.only,
        profileDir: values.profile,
      });
      results.set(mode, [...(results.get(mode) ?? []), cases]);
      console.log(`${mode}: ${String(counts.spans - before)} spans received`);
    }
    const distinct = [...results.keys()];
    const names = [...new Set([...results.values()].flat(2).map((result) => result.name))];
    console.log(
      `\nCPU µs per iteration (of which system, and GC pauses), median of ${values.runs} runs per child:`,
    );
    console.log(
      ['case', ...distinct.map((mode) => `${mode} ×${String(results.get(mode)?.length)}`)].join(
        '\t',
      ),
    );
    for (const name of names) {
      const cells = distinct.map((mode) => {
        const found = (results.get(mode) ?? []).flatMap((cases) =>
          cases.filter((result) => result.name === name),
        );
        if (found.length === 0) return '-';
        const total = median(found.map((result) => result.microseconds));
        const system = median(found.map((result) => result.systemMicroseconds));
        const gc = median(found.map((result) => result.gcMicroseconds));
        return `${total.toFixed(1)} (${system.toFixed(1)}, gc ${gc.toFixed(1)})`;
      });
      console.log([name, ...cells].join('\t'));
    }
    console.log('\nspans received by name:');
    for (const [name, count] of [...counts.byName].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${name}\t${String(count)}`);
    }
  } finally {
    await server.stop();
    receiver.server.close();
  }
}

const childMode = process.env['SPAN_COST_CHILD'];
if (childMode === undefined) {
  await parent();
} else {
  const results = await runSpanCases({
    databaseUrl: process.env['SPAN_COST_DATABASE_URL'] ?? '',
    runs: Number(process.env['SPAN_COST_RUNS'] ?? '7'),
    only: process.env['SPAN_COST_ONLY'],
  });
  console.log(JSON.stringify(results));
}
