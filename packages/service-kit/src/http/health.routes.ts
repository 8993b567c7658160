// Liveness and readiness, kept apart: /health says the process answers (restart
// it if not), /ready says its dependencies answer too (send it traffic only then).
import { z } from 'zod';
import type { FastifyZodInstance } from './create-http-server.js';
import { problem, sendProblem } from './problem.js';

/** A check that hangs (a pool waiting for a connection) must fail, not hang /ready. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

const HealthBody = z.object({ status: z.literal('ok') });
const ReadyBody = z.object({
  status: z.literal('ready'),
  checks: z.record(z.string(), z.literal('ok')),
});

interface CheckFailure {
  name: string;
  ok: false;
  message: string;
}
type CheckResult = { name: string; ok: true } | CheckFailure;

async function runCheck(name: string, check: () => Promise<void>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${String(READY_CHECK_TIMEOUT_MS)} ms`));
    }, READY_CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { name, ok: true };
  } catch (error) {
    return { name, ok: false, message: error instanceof Error ? error.message : String(error) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /health: 200 `{status:'ok'}` while the process serves requests.
 * GET /ready: runs every check at once; 200 `{status:'ready', checks:{name:'ok'}}`,
 * or a 503 problem (code NOT_READY) with one `errors` entry per failing check.
 *
 * @example
 * registerHealthRoutes(app, { checks: { database: () => sql`SELECT 1`.execute(db).then(() => undefined) } });
 */
export function registerHealthRoutes(
  app: FastifyZodInstance,
  input: { checks: Record<string, () => Promise<void>> },
): void {
  app.get('/health', { logLevel: 'warn', schema: { response: { 200: HealthBody } } }, () => ({
    status: 'ok' as const,
  }));
  app.get(
    '/ready',
    { logLevel: 'warn', schema: { response: { 200: ReadyBody } } },
    async (request, reply) => {
      const results = await Promise.all(
        Object.entries(input.checks).map(([name, check]) => runCheck(name, check)),
      );
      const failed = results.filter((result): result is CheckFailure => !result.ok);
      if (failed.length > 0) {
        return sendProblem(
          request,
          reply,
          problem({
            status: 503,
            code: 'NOT_READY',
            title: 'A dependency of the service is not available',
            detail: `Failing: ${failed.map((result) => result.name).join(', ')}.`,
            errors: failed.map((result) => ({ path: result.name, message: result.message })),
          }),
        );
      }
      return {
        status: 'ready' as const,
        checks: Object.fromEntries(results.map((result) => [result.name, 'ok' as const])),
      };
    },
  );
}
