// The only reader of process.env in the console: parsed with zod once at
// start, so a bad deployment fails before it serves. The supervisor hands
// over the whole stack (URLs, ports, databases, tokens) as CONSOLE_STACK.
import { StackTarget } from '@effectively-once/lab-stack';
import { loadEventStoreConfig, type EventStoreConfig } from '@effectively-once/event-store';
import { LOG_LEVELS, type LogLevel } from '@effectively-once/service-kit';
import { z } from 'zod';
import type { TracingExport } from './api/console.api.js';
import { hostnameOf, LOOPBACK_HOSTNAMES } from './http/known-host.js';
import { tracingExport } from './traces/tracing-export.js';

export interface ConsoleConfig {
  host: string;
  port: number;
  logLevel: LogLevel;
  /** The stack this console belongs to; the lab and admin tokens never leave this process. */
  stack: StackTarget;
  eventStore: EventStoreConfig;
  /** How often an open event stream gets a keep-alive comment. */
  heartbeatMs: number;
  /** How many feed items (events, outcomes, lab steps) the console remembers. */
  feedCapacity: number;
  /** Where the stack's spans go (its OTEL_* variables): the trace view's empty state says it. */
  tracing: TracingExport;
}

const StackJson = z.string({ error: 'is required' }).transform((text, context) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    context.addIssue({ code: 'custom', message: 'must be JSON (the supervisor sets it)' });
    return z.NEVER;
  }
});

const ConsoleEnv = z.object({
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PORT: z.coerce
    .number({ error: 'must be a port number (0-65535)' })
    .int()
    .min(0)
    .max(65_535)
    .default(3007),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  CONSOLE_STACK: StackJson.pipe(StackTarget),
  CONSOLE_HEARTBEAT_MS: z.coerce.number().int().min(1_000).max(60_000).default(5_000),
  CONSOLE_FEED_CAPACITY: z.coerce.number().int().min(100).max(100_000).default(5_000),
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_TRACES_EXPORTER: z.string().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
});

/**
 * Reads HOST, PORT, LOG_LEVEL, CONSOLE_STACK, CONSOLE_HEARTBEAT_MS,
 * CONSOLE_FEED_CAPACITY, the OTEL_* keys that say where spans go, and the event-store keys; every problem is reported
 * at once, in one Error. An empty variable counts as unset.
 *
 * @example
 * const config = loadConsoleConfig(); // config.stack.faults.enabled, config.port
 */
export function loadConsoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  const parsed = ConsoleEnv.safeParse(
    Object.fromEntries(Object.keys(ConsoleEnv.shape).map((key) => [key, env[key] || undefined])),
  );
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.') || '(env)'} ${issue.message}`);
  let eventStore: EventStoreConfig | undefined;
  try {
    eventStore = loadEventStoreConfig(env);
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error));
  }
  if (!parsed.success || eventStore === undefined) {
    throw new Error(`Invalid configuration of console: ${problems.join('; ')}.`);
  }
  const { data } = parsed;
  return {
    host: data.HOST,
    port: data.PORT,
    logLevel: data.LOG_LEVEL,
    stack: data.CONSOLE_STACK,
    eventStore,
    heartbeatMs: data.CONSOLE_HEARTBEAT_MS,
    feedCapacity: data.CONSOLE_FEED_CAPACITY,
    tracing: tracingExport(data, {
      port: data.PORT,
      hostnames: [...LOOPBACK_HOSTNAMES, hostnameOf(data.HOST)],
    }),
  };
}
