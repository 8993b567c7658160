// Asks every service whether it is ready, all at once, each with its own
// deadline, so one hung service costs the caller one timeout, not one per service.
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

export async function checkReadiness(input: {
  upstreams: Upstreams;
  timeoutMs: number;
}): Promise<HealthReport> {
  const entries = await Promise.all(
    ServiceName.options.map(
      async (service) => [service, await probe(input.upstreams[service], input.timeoutMs)] as const,
    ),
  );
  const ready = entries.every(([, readiness]) => readiness === 'ready');
  return HealthReport.parse({
    status: ready ? 'ready' : 'not_ready',
    services: Object.fromEntries(entries),
  });
}
