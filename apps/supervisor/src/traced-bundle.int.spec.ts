// Tracing reaches into a bundled process (docs/adr/0033): a process run as
// the supervisor runs it, from its esbuild bundle with the tracing register
// loaded first, exports an HTTP server span and the pg span of the query it
// made while serving, one the child of the other, to an OTLP/HTTP JSON endpoint.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@effectively-once/postgres/testing';
import {
  SPAN_KIND,
  startOtlpReceiver,
  type OtlpReceiver,
} from '@effectively-once/service-kit/testing';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildProcessBundles, processCommand, type ProcessBundles } from './process-bundles.js';
import { ENTRIES } from './stack.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

let cacheDir: string;
let bundles: ProcessBundles;
let receiver: OtlpReceiver;
beforeAll(async () => {
  cacheDir = await mkdtemp(path.join(os.tmpdir(), 'eo-traced-bundles-'));
  bundles = await buildProcessBundles({
    repoRoot: REPO_ROOT,
    entries: [ENTRIES.paymentProvider],
    cacheDir,
    traced: true,
  });
  receiver = await startOtlpReceiver();
}, 120_000);
afterAll(async () => {
  await receiver.close();
  await rm(cacheDir, { recursive: true, force: true });
});

/** The payment provider from its bundle; its output collected, to find its URL. */
function startProvider(databaseUrl: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, processCommand(ENTRIES.paymentProvider, bundles), {
    cwd: REPO_ROOT,
    env: {
      PATH: process.env['PATH'],
      HOST: '127.0.0.1',
      PORT: '0',
      DATABASE_URL: databaseUrl,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'payment-provider',
      // Exported at once rather than every five seconds: the test waits less.
      OTEL_BSP_SCHEDULE_DELAY: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

function stop(child: ChildProcess): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** The provider's URL once it says it listens. */
async function listeningUrl(provider: ReturnType<typeof startProvider>): Promise<string> {
  return vi.waitFor(
    () => {
      const listening = /listening on (http:\/\/[\d.:]+)/.exec(provider.output());
      if (listening?.[1] === undefined) throw new Error(`not listening:\n${provider.output()}`);
      return listening[1];
    },
    { timeout: 30_000, interval: 50 },
  );
}

describe('a bundled process started with the tracing register', () => {
  it('exports the HTTP server span of a request and the pg span of its query under it', async () => {
    const { url: databaseUrl } = await createTestDatabase({});
    const provider = startProvider(databaseUrl);
    try {
      const url = await listeningUrl(provider);

      // When it serves a request that reads its database
      expect((await fetch(`${url}/ledger`)).status).toBe(200);

      // Then the request's server span, and a pg span under it, reach the endpoint
      const [server, query] = await vi.waitFor(
        () => {
          const request = receiver.spans.find(
            (span) => span.kind === SPAN_KIND.server && span.attributes['url.path'] === '/ledger',
          );
          const pg = receiver.spans.find(
            (span) =>
              span.kind === SPAN_KIND.client &&
              span.attributes['db.system.name'] === 'postgresql' &&
              span.attributes['db.query.text'] !== undefined &&
              span.parentSpanId === request?.spanId,
          );
          if (request === undefined || pg === undefined) throw new Error('not exported yet');
          return [request, pg] as const;
        },
        { timeout: 20_000, interval: 100 },
      );
      expect(server.service).toBe('payment-provider');
      expect(query.service).toBe('payment-provider');
      expect(query.traceId).toBe(server.traceId);
      expect(query.attributes['db.query.text']).toMatch(/from "authorization"/);
    } finally {
      stop(provider.child);
    }
  });

  it('makes no pg spans when OTEL_NODE_DISABLED_INSTRUMENTATIONS names pg', async () => {
    const { url: databaseUrl } = await createTestDatabase({});
    const provider = startProvider(databaseUrl, {
      OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg',
      OTEL_RESOURCE_ATTRIBUTES: 'service.instance.id=without-pg-spans',
    });
    try {
      const url = await listeningUrl(provider);

      // When it serves a request that reads its database
      expect((await fetch(`${url}/ledger`)).status).toBe(200);

      // Then the request's server span arrives, and no span of that trace is a query: the
      // query ended before the request did, so it would have been exported with it or before
      const server = await vi.waitFor(
        () => {
          const request = receiver.spans.find(
            (span) =>
              span.kind === SPAN_KIND.server &&
              span.instance === 'without-pg-spans' &&
              span.attributes['url.path'] === '/ledger',
          );
          if (request === undefined) throw new Error('not exported yet');
          return request;
        },
        { timeout: 20_000, interval: 100 },
      );
      const ofTrace = receiver.spans.filter((span) => span.traceId === server.traceId);
      expect(ofTrace.length).toBeGreaterThan(0);
      expect(ofTrace.filter((span) => span.attributes['db.system.name'] !== undefined)).toEqual([]);
    } finally {
      stop(provider.child);
    }
  });
});
