// Asks every replica of every service whether it is ready, all at once, each
// with its own deadline, so one hung replica costs the caller one timeout, not
// one per replica. A service is ready when one of its replicas is: the pools
// send its requests there.
import { HealthReport, ServiceName, type ServiceReadiness } from '@effectively-once/contracts';
import type { Upstreams } from './config.js';

async function probe(url: string, timeoutMs: number): Promise<ServiceReadiness> {
  try {
    const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(timeoutMs) });
    // The body (a report or a problem document) is not needed: free the connection.
    await response.body?.cancel();
    return response.ok ? 'ready' : 'not_ready';
  } catch {
    return 'unreachable';
  }
}

/** The best any replica says: ready, else not ready (it answered), else unreachable. */
function bestOf(answers: readonly ServiceReadiness[]): ServiceReadiness {
  if (answers.includes('ready')) return 'ready';
  return answers.includes('not_ready') ? 'not_ready' : 'unreachable';
}

export async function checkReadiness(input: {
  upstreams: Upstreams;
  timeoutMs: number;
}): Promise<HealthReport> {
  const entries = await Promise.all(
    ServiceName.options.map(async (service) => {
      const answers = await Promise.all(
        input.upstreams[service].map((url) => probe(url, input.timeoutMs)),
      );
      return [service, bestOf(answers)] as const;
    }),
  );
  const ready = entries.every(([, readiness]) => readiness === 'ready');
  return HealthReport.parse({
    status: ready ? 'ready' : 'not_ready',
    services: Object.fromEntries(entries),
  });
}
