// The network panel's routes (lab mode): the fault proxy's links, read from
// and changed through the supervisor's lab-control server, whose token stays
// in this process. Clearing is a POST, not a DELETE, so that the same-origin
// guard every console POST passes covers it too.
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import { labControlClient, type LabControlClient } from '@effectively-once/scenario-runner';
import { z } from 'zod';
import { ConsoleLinkFault, ConsoleLinks } from '../api/console.api.js';
import { LinkStats } from '@effectively-once/fault-proxy/schemas';
import type { ConsoleConfig } from '../config.js';

const LinkParams = z.strictObject({ link: z.string().min(1).max(100) });

const LAB_OFF = new ProblemError({
  status: 409,
  code: 'LAB_MODE_OFF',
  title: 'The stack runs without the lab',
  detail: 'Network faults need a lab stack: start it with STACK_FAULTS=true.',
});

/** What lab-control answered, passed on with its status; a refused connection is a 502. */
function passOn(error: unknown): ProblemError {
  const status =
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    typeof error.status === 'number'
      ? error.status
      : 502;
  return new ProblemError({
    status: status >= 400 && status < 500 ? status : 502,
    code: status === 404 ? 'LINK_NOT_FOUND' : 'LAB_CONTROL_FAILED',
    title: status === 404 ? 'No such link' : 'The supervisor’s lab-control server did not do it',
    detail: error instanceof Error ? error.message : String(error),
  });
}

/**
 * GET /api/console/links, POST /api/console/links/:link/faults `{kind, ...}`,
 * POST /api/console/links/:link/clear. 409 LAB_MODE_OFF outside lab mode.
 *
 * @example
 * registerLinkRoutes(app, { config });
 */
export function registerLinkRoutes(
  app: FastifyZodInstance,
  deps: { config: Pick<ConsoleConfig, 'stack'> },
): void {
  const { stack } = deps.config;
  const control = (): LabControlClient => {
    if (!stack.faults.enabled || stack.ports.labControl === undefined) throw LAB_OFF;
    return labControlClient(stack);
  };
  app.get('/api/console/links', { schema: { response: { 200: ConsoleLinks } } }, async () => {
    const client = control();
    return { links: await client.links().catch((error: unknown) => Promise.reject(passOn(error))) };
  });
  app.post(
    '/api/console/links/:link/faults',
    { schema: { params: LinkParams, body: ConsoleLinkFault, response: { 200: LinkStats } } },
    (request) =>
      control()
        .applyFault(request.params.link, request.body)
        .catch((error: unknown) => Promise.reject(passOn(error))),
  );
  app.post(
    '/api/console/links/:link/clear',
    { schema: { params: LinkParams, response: { 200: LinkStats } } },
    (request) =>
      control()
        .clearFaults(request.params.link)
        .catch((error: unknown) => Promise.reject(passOn(error))),
  );
}
