import { z } from 'zod';
import type { ZodApp } from './http-server.js';
import { ProblemError } from './problem-details.js';

const Health = z.object({ status: z.literal('ok') });
const Readiness = z.object({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.literal('ok')),
});

/**
 * GET /health: the process answers. GET /ready: every check passes, else a
 * 503 problem naming the failing ones.
 */
export function registerHealthRoutes(
  app: ZodApp,
  input: { checks: Record<string, () => Promise<void>> },
): void {
  app.get('/health', { schema: { response: { 200: Health } } }, () => ({ status: 'ok' as const }));
  app.get('/ready', { schema: { response: { 200: Readiness } } }, async () => {
    const entries = Object.entries(input.checks);
    const results = await Promise.allSettled(entries.map(([, check]) => check()));
    const failed = entries
      .filter((_, index) => results[index]?.status === 'rejected')
      .map(([name]) => name);
    if (failed.length > 0) {
      throw new ProblemError({
        status: 503,
        code: 'NOT_READY',
        title: 'Not ready',
        detail: `Failing checks: ${failed.join(', ')}`,
      });
    }
    return {
      status: 'ready' as const,
      checks: Object.fromEntries(entries.map(([name]) => [name, 'ok' as const])),
    };
  });
}
