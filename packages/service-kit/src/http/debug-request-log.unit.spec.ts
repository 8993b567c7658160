import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DebugRequestLog } from './debug-request-log.js';

/** A Fastify instance logging to an array at `level`, with one route that answers and one that throws. */
async function appLoggingAt(level: 'info' | 'debug') {
  const lines: { level: number; msg: string; requestId?: string }[] = [];
  const app = Fastify({
    logger: { level, stream: { write: (line: string) => lines.push(JSON.parse(line) as never) } },
    logController: new DebugRequestLog({ requestIdLogLabel: 'requestId' }),
  });
  app.get('/ok', () => ({ ok: true }));
  app.get('/broken', () => {
    throw new Error('broken');
  });
  await app.ready();
  return { app, messages: () => lines.map((line) => `${String(line.level)} ${line.msg}`), lines };
}

describe('DebugRequestLog', () => {
  it('writes nothing per request at info', async () => {
    const { app, messages } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/ok' });
    expect(messages()).toEqual([]);
  });

  it('writes both request lines at debug, with the request id', async () => {
    const { app, messages, lines } = await appLoggingAt('debug');
    await app.inject({ method: 'GET', url: '/ok' });
    expect(messages()).toEqual(['20 incoming request', '20 request completed']);
    expect(lines.every((line) => typeof line.requestId === 'string')).toBe(true);
  });

  it('still logs a failed request at error at info', async () => {
    const { app, messages } = await appLoggingAt('info');
    await app.inject({ method: 'GET', url: '/broken' });
    expect(messages()).toContain('50 broken');
  });
});
