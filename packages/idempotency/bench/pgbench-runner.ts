// The same two statements run by pgbench: the server's ceiling with no Node
// process at all. Shown beside the raw pg loop, not used for the ratio.
import { execFile, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Runner } from './measure.js';
import { PGBENCH_CONSUMER_NAME, QUANTITY, skuPrefix } from './workload.js';

// :client_id is pgbench's own 0-based client number: one SKU per client, as
// one per worker in the Node paths (see skuFor).
const SCRIPT = `BEGIN;
INSERT INTO processed_message (consumer_name, message_id)
  VALUES ('${PGBENCH_CONSUMER_NAME}', gen_random_uuid()::text)
  ON CONFLICT DO NOTHING RETURNING message_id;
UPDATE inventory SET available = available - ${String(QUANTITY)}, reserved = reserved + ${String(QUANTITY)}
  WHERE sku = '${skuPrefix('pgbench')}' || :client_id::text AND available >= ${String(QUANTITY)};
COMMIT;
`;

/** `pgbench (PostgreSQL) 15.18 ...` when pgbench is on PATH, otherwise undefined. */
export async function pgbenchVersion(): Promise<string | undefined> {
  try {
    const { stdout } = await promisify(execFile)('pgbench', ['--version']);
    return stdout.trim();
  } catch {
    return undefined;
  }
}

/** The URL without its password, which goes in PGPASSWORD instead of the process list. */
function connectionEnv(url: string): { target: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = '';
  return { target: parsed.toString(), env: { ...process.env, PGPASSWORD: password } };
}

function runPgbench(args: string[], env: NodeJS.ProcessEnv): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('pgbench', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code === 0) resolve(output);
      else reject(new Error(`pgbench exited with code ${String(code)}:\n${output}`));
    });
  });
}

/**
 * pgbench with the custom script at `concurrency` clients, prepared protocol,
 * one thread per core at most. Its tps excludes connection set-up.
 */
export async function pgbenchRunner(url: string, concurrency: number): Promise<Runner> {
  const dir = await mkdtemp(path.join(tmpdir(), 'effectively-once-pgbench-'));
  const scriptFile = path.join(dir, 'claim-and-reserve.sql');
  await writeFile(scriptFile, SCRIPT);
  const { target, env } = connectionEnv(url);
  const threads = Math.min(concurrency, availableParallelism());
  return {
    name: 'pgbench',
    concurrency,
    run: async (durationMs) => {
      const seconds = String(Math.max(1, Math.round(durationMs / 1000)));
      const args = ['-n', '-M', 'prepared', '-f', scriptFile, '-T', seconds];
      args.push('-c', String(concurrency), '-j', String(threads), target);
      const output = await runPgbench(args, env);
      const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(output)?.[1];
      if (tps === undefined) throw new Error(`No tps in pgbench's output:\n${output}`);
      return { messagesPerSecond: Number(tps), cpuUsPerMessage: undefined };
    },
    close: () => rm(dir, { recursive: true, force: true }),
  };
}
