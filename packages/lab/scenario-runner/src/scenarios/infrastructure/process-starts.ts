// Whether a fault made a service process die: each saga service's /metrics
// says when its process started, so a start time that moved means the
// supervisor had to restart it. Surviving a lost session or a database
// restart is the services' job; a crash would be rescued by the supervisor,
// which is not the same thing.
import type { ScenarioContext } from '../../scenario.js';
import { LAB_SERVICES, serviceUrl, type LabService } from '../../stack/lab-stack.js';

// Labels (a replica's service_instance) may follow the name.
const START_TIME = /^process_start_time_seconds(?:\{[^}]*\})? (\d+(?:\.\d+)?)$/m;

export type ProcessStarts = ReadonlyMap<LabService, number>;

/** The start time of every saga service's current process. */
export async function processStarts(context: ScenarioContext): Promise<ProcessStarts> {
  const starts = new Map<LabService, number>();
  for (const service of LAB_SERVICES) {
    const response = await fetch(`${serviceUrl(context.stack, service)}/metrics`);
    const match = START_TIME.exec(await response.text());
    if (match?.[1] === undefined) throw new Error(`${service}'s /metrics has no start time.`);
    starts.set(service, Number(match[1]));
  }
  return starts;
}

/** Records, as an expectation, that no saga service was restarted since `before`. */
export async function expectNoRestart(
  context: ScenarioContext,
  before: ProcessStarts,
): Promise<void> {
  const after = await processStarts(context);
  const restarted = [...before].filter(([service, at]) => after.get(service) !== at);
  context.expect(
    'no saga service process died: each rode the fault out in place',
    restarted.length === 0,
    restarted.length === 0 ? 'none restarted' : restarted.map(([service]) => service).join(', '),
  );
}
