// The container image's contents, assembled by the same step the Dockerfile
// runs, into a folder outside the repository, and run from there with plain
// Node: a saga service starts on fresh databases (it migrates both itself),
// becomes ready, and exits 0 on SIGTERM, as a container's stop sends it; with
// an OTLP endpoint set it exports its spans, its pg statements included.
import { randomUUID } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import { SPAN_KIND, startOtlpReceiver } from '@effectively-once/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { assembleImage, IMAGE_TRACING_REGISTER, type ImageContents } from './assemble-image.js';

const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

let outDir: string;
let contents: ImageContents;
beforeAll(async () => {
  outDir = await mkdtemp(path.join(os.tmpdir(), 'eo-image-'));
  contents = await assembleImage({ repoRoot: REPO_ROOT, outDir });
}, 120_000);
afterAll(async () => {
  await rm(outDir, { recursive: true, force: true });
});

/** The Dockerfile's ENTRYPOINT with `args`, in the image's folder, its output collected. */
function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const node = ['--enable-source-maps', '--import', `./${IMAGE_TRACING_REGISTER}`, 'start.mjs'];
  const child = spawn(process.execPath, [...node, ...args], {
    cwd: outDir,
    // Nothing of this machine's environment: a container has only what it is given.
    env: { PATH: process.env['PATH'], ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, exited, output: () => output };
}

/** A process a failed test left running is killed, never left behind. */
function stop(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Starts the order service from the image on fresh databases and waits until it is ready. */
async function readyOrder(env: NodeJS.ProcessEnv = {}) {
  const [own, events] = await Promise.all([createTestDatabase({}), createTestDatabase({})]);
  const order = run(['order'], {
    HOST: '127.0.0.1',
    PORT: '0',
    DATABASE_URL: own.url,
    EVENT_STORE_DATABASE_URL: events.url,
    ...env,
  });
  try {
    const url = await vi.waitFor(
      () => {
        const listening = /order listening on (http:\/\/[\d.:]+)/.exec(order.output());
        if (listening?.[1] === undefined) throw new Error(`not listening yet:\n${order.output()}`);
        return listening[1];
      },
      { timeout: 30_000, interval: 50 },
    );
    await vi.waitFor(
      async () => {
        expect((await fetch(`${url}/ready`)).status).toBe(200);
      },
      { timeout: 30_000, interval: 100 },
    );
    return { ...order, url };
  } catch (error) {
    stop(order.child);
    throw error;
  }
}

describe('the container image', () => {
  it('runs every process it names from its own bundles', async () => {
    expect(Object.keys(contents.processes)).toEqual(
      expect.arrayContaining(['order', 'inventory', 'payment', 'notification', 'gateway']),
    );
    const bundles = await readdir(path.join(outDir, 'bundles'));
    for (const bundle of Object.values(contents.processes)) {
      expect(bundles).toContain(path.basename(bundle));
    }
  });

  it("loads nothing from the repository's node_modules: only the image's own, by name", async () => {
    expect(contents.packages).toEqual(expect.arrayContaining(['pg']));
    const bundles = (await readdir(path.join(outDir, 'bundles'))).filter((file) =>
      file.endsWith('.mjs'),
    );
    const sources = await Promise.all(
      bundles.map((file) => readFile(path.join(outDir, 'bundles', file), 'utf8')),
    );

    expect(sources.filter((source) => source.includes(`${REPO_ROOT}node_modules/`))).toEqual([]);
  });

  it('starts a saga service on fresh databases, ready, and stops it with SIGTERM, exit 0', async () => {
    const order = await readyOrder();
    try {
      order.child.kill('SIGTERM');

      expect(await order.exited).toBe(0);
      expect(order.output()).toContain('shutting down');
    } finally {
      stop(order.child);
    }
  });

  it('traces when given an OTLP endpoint: its requests’ spans and the pg statements under them', async () => {
    const receiver = await startOtlpReceiver();
    const order = await readyOrder({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      OTEL_SERVICE_NAME: 'order',
    });
    try {
      expect((await fetch(`${order.url}/orders/${randomUUID()}`)).status).toBe(404);

      const request = await vi.waitFor(
        () => {
          const span = receiver.spans.find(
            (candidate) => candidate.service === 'order' && candidate.kind === SPAN_KIND.server,
          );
          if (span === undefined) throw new Error('no server span yet');
          return span;
        },
        { timeout: 30_000, interval: 100 },
      );
      expect(request.name).toBe('GET /orders/:orderId');
      // pg loaded from the image's node_modules, where the instrumentation saw it load
      await vi.waitFor(
        () => {
          expect(
            receiver.spans.some(
              (span) =>
                span.parentSpanId === request.spanId &&
                span.attributes['db.system.name'] === 'postgresql',
            ),
          ).toBe(true);
        },
        { timeout: 30_000, interval: 100 },
      );
    } finally {
      stop(order.child);
      await receiver.close();
    }
  });

  it('refuses a process it does not know, naming the ones it does', async () => {
    const unknown = run(['billing']);

    expect(await unknown.exited).toBe(2);
    expect(unknown.output()).toMatch(/Unknown process "billing"\. Usage: start\.mjs <order \|/);
  });
});
