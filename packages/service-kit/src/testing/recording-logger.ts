// A real pino logger (Fastify's) whose lines the test can read and wait for:
// tests wait for a named log line ("delivery acknowledged") instead of sleeping.
import Fastify, { type FastifyBaseLogger } from 'fastify';
import { z } from 'zod';

const LogLine = z.looseObject({ level: z.number(), msg: z.string() });
export type LogLine = z.infer<typeof LogLine>;

interface Waiter {
  matches: (line: LogLine) => boolean;
  resolve: (line: LogLine) => void;
}

export function recordingLogger(): {
  log: FastifyBaseLogger;
  lines: LogLine[];
  waitFor(matches: (line: LogLine) => boolean, what: string, timeoutMs?: number): Promise<LogLine>;
} {
  const lines: LogLine[] = [];
  const waiters = new Set<Waiter>();
  const write = (text: string): void => {
    const line = LogLine.parse(JSON.parse(text));
    lines.push(line);
    for (const waiter of waiters) if (waiter.matches(line)) waiter.resolve(line);
  };
  const { log } = Fastify({ logger: { level: 'debug', stream: { write } } });

  const waitFor = (
    matches: (line: LogLine) => boolean,
    what: string,
    timeoutMs = 15_000,
  ): Promise<LogLine> => {
    const seen = lines.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        matches,
        resolve: (line) => {
          clearTimeout(timer);
          waiters.delete(waiter);
          resolve(line);
        },
      };
      const timer = setTimeout(() => {
        waiters.delete(waiter);
        reject(
          new Error(`Timed out after ${String(timeoutMs)} ms waiting for the log line: ${what}.`),
        );
      }, timeoutMs);
      waiters.add(waiter);
    });
  };
  return { log, lines, waitFor };
}
