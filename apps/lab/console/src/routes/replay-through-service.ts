// A replay of parked messages is the owning service's decision: only it holds
// the consumer's markers and replay horizon, and it refuses a message that
// could be applied twice (parked-replay.routes.ts in the service kit). So the
// console never replays through the store itself; it asks the service, through
// the gateway's /api/admin routes, with the stack's admin token, and passes
// the service's answer on, a refusal included.
import { ProblemError } from '@effectively-once/service-kit';
import { z } from 'zod';
import { ReplayedParked } from '../api/console.api.js';

const REPLAY_TIMEOUT_MS = 15_000;

/** What the console reads of a service's problem document; the rest it passes on as it came. */
const ServiceProblem = z.looseObject({
  status: z.number().int(),
  code: z.string(),
  title: z.string(),
  detail: z.string().optional(),
});

function passedOn(status: number, body: unknown): ProblemError {
  const parsed = ServiceProblem.safeParse(body);
  if (!parsed.success) {
    return new ProblemError({
      status: 502,
      code: 'SERVICE_ANSWER_UNREADABLE',
      title: 'The service answered the replay with something other than a problem document',
      detail: `HTTP ${String(status)}.`,
    });
  }
  const { code, title, detail } = parsed.data;
  return new ProblemError({
    status,
    code,
    title,
    ...(detail === undefined ? {} : { detail }),
    // The console's own error handler keeps its standard members: only the extensions are added.
    extensions: parsed.data,
  });
}

/**
 * POSTs /api/admin/{service}/parked/replay?consumer= at the gateway and
 * answers what the service answered: `{ consumer, replayed }`, or its problem
 * (409 PARKED_REPLAY_BEYOND_HORIZON, with the messages it refused).
 *
 * @example
 * const answer = await replayThroughService({ gatewayUrl, adminToken, service: 'inventory', consumer: 'inventory-demand-v1' });
 */
export async function replayThroughService(input: {
  gatewayUrl: string;
  adminToken: string;
  service: string;
  consumer: string;
}): Promise<z.infer<typeof ReplayedParked>> {
  const url = `${input.gatewayUrl}/api/admin/${input.service}/parked/replay?consumer=${encodeURIComponent(input.consumer)}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${input.adminToken}` },
      signal: AbortSignal.timeout(REPLAY_TIMEOUT_MS),
    });
  } catch (error) {
    throw new ProblemError({
      status: 503,
      code: 'SERVICE_UNREACHABLE',
      title: 'The service that owns the consumer could not be asked',
      detail: `${input.service} did not answer through the gateway: ${error instanceof Error ? error.message : String(error)}. Nothing was replayed.`,
    });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) throw passedOn(response.status, body);
  return ReplayedParked.parse(body);
}
