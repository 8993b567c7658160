// onShutdownSignal in a real child process: a signal runs close once and the
// exit code says whether it succeeded.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const CHILD = fileURLToPath(new URL('./testing/shutdown-child.ts', import.meta.url));
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const LogLine = z.looseObject({ msg: z.string() });

/** Starts the child, sends it `signals` once it is waiting, and resolves with its exit code and log. */
function runChild(
  mode: string,
  signals: NodeJS.Signals[],
): Promise<{ code: number | null; lines: z.infer<typeof LogLine>[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, mode], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines: z.infer<typeof LogLine>[] = [];
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const parts = (pending + chunk).split('\n');
    pending = parts.pop() ?? '';
    for (const part of parts.filter((text) => text.trim() !== '')) {
      const line = LogLine.parse(JSON.parse(part));
      lines.push(line);
      if (line.msg === 'waiting for a signal') for (const signal of signals) child.kill(signal);
    }
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, lines }));
  });
}

describe('onShutdownSignal', () => {
  it('closes once when SIGTERM and SIGINT both arrive, and exits 0', async () => {
    const { code, lines } = await runChild('ok', ['SIGTERM', 'SIGINT']);

    expect(code).toBe(0);
    // Pino may write a line buffered before a later one, so the log is compared as a set.
    expect(lines.map((line) => line.msg).sort()).toEqual([
      'closing',
      'shut down',
      'shutting down',
      'waiting for a signal',
    ]);
    // The operating system may hand the two signals over in either order.
    expect(['SIGTERM', 'SIGINT']).toContain(
      lines.find((line) => line.msg === 'shutting down')?.['signal'],
    );
    expect(lines.find((line) => line.msg === 'closing')).toMatchObject({ closes: 1 });
  });

  it('exits 1 when close fails', async () => {
    const { code, lines } = await runChild('fail', ['SIGINT']);

    expect(code).toBe(1);
    expect(lines.map((line) => line.msg)).toContain('shutdown failed');
  });

  it('exits 1 when close outlasts the timeout', async () => {
    const { code, lines } = await runChild('hang', ['SIGTERM']);

    expect(code).toBe(1);
    expect(lines.find((line) => line.msg === 'shutdown timed out')).toMatchObject({
      timeoutMs: 300,
    });
  });
});
