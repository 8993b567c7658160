// Timing: run a path for a fixed duration at a fixed concurrency and report
// messages per second, plus the benchmark process's own CPU time per message.
import type { RunnerName } from './workload.js';

export interface Sample {
  messagesPerSecond: number;
  /** CPU of this Node process per message (user + system); undefined for pgbench. */
  cpuUsPerMessage: number | undefined;
}

/** Processes some messages for one worker and says how many. */
export type Step = (worker: number) => Promise<number>;

/** A path ready to be measured, holding its own connections until closed. */
export interface Runner {
  readonly name: RunnerName;
  readonly concurrency: number;
  run(durationMs: number): Promise<Sample>;
  close(): Promise<void>;
}

/**
 * Runs `concurrency` workers, each calling `step` back to back until the
 * deadline. A message in flight at the deadline still counts, and so does the
 * time it took: throughput is completed messages over the real elapsed time.
 */
export async function runFor(options: {
  durationMs: number;
  concurrency: number;
  step: Step;
}): Promise<Sample> {
  const { durationMs, concurrency, step } = options;
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  const deadline = startedAt + durationMs;
  let messages = 0;
  const worker = async (index: number): Promise<void> => {
    while (performance.now() < deadline) {
      // Not `messages += await step()`: that reads `messages` before the await
      // and drops what the other workers added meanwhile.
      const done = await step(index);
      messages += done;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, index) => worker(index)));
  const elapsedSeconds = (performance.now() - startedAt) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  return {
    messagesPerSecond: messages / elapsedSeconds,
    cpuUsPerMessage: messages === 0 ? undefined : (cpu.user + cpu.system) / messages,
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const upper = sorted[middle];
  const lower = sorted[sorted.length % 2 === 0 ? middle - 1 : middle];
  if (upper === undefined || lower === undefined) throw new Error('The median of no values.');
  return (lower + upper) / 2;
}
