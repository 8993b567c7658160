// With the console running, the stack's spans go to it (it receives OTLP/HTTP
// JSON at /v1/traces) unless the user said where they go: a lab-free template
// exports nowhere by default. Pure, like lab-stack.ts.
import type { ProcessSpec } from '../stack.js';
import type { LabStackInput } from './lab-stack.js';

/** Any of these set by the user: their choice of exporter wins over the console. */
const USER_EXPORTER_VARIABLES = [
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  'OTEL_TRACES_EXPORTER',
];

/**
 * The batch span processor's settings for the console: exports of up to 2,048
 * spans (the SDK's default is 512) from a queue of 8,192 (2,048), sent every
 * 500 ms (5 s). A span waits in the queue until its export, and a span held
 * for seconds outlives the young generation's collections: the collector
 * copies it over and over, then promotes it. Exported within half a second it
 * dies young, and the order service's ~150 spans of a half second fit one
 * batch (docs/observability.md#what-tracing-costs). A value the user set wins.
 */
const CONSOLE_BATCHES = {
  OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '2048',
  OTEL_BSP_MAX_QUEUE_SIZE: '8192',
  OTEL_BSP_SCHEDULE_DELAY: '500',
};

/**
 * Every process exports its spans to the console's receiver, as OTLP/HTTP
 * JSON, every half second in batches of up to 2,048 spans; unchanged when the console does not
 * run or the user set an exporter.
 *
 * @example
 * exportToConsole(specs, { ...lab, console: true, ports: { ...ports, console: 3007 } });
 * // each env: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://127.0.0.1:3007/v1/traces
 */
export function exportToConsole(
  specs: readonly ProcessSpec[],
  input: Pick<LabStackInput, 'stack' | 'ports' | 'console'>,
): ProcessSpec[] {
  const consolePort = input.ports.console;
  const { inheritedEnv, host } = input.stack;
  const userChose = USER_EXPORTER_VARIABLES.some((key) => inheritedEnv[key] !== undefined);
  if (!input.console || consolePort === undefined || userChose) return [...specs];
  const batches = Object.fromEntries(
    Object.entries(CONSOLE_BATCHES).filter(([key]) => inheritedEnv[key] === undefined),
  );
  const toConsole = {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://${host}:${String(consolePort)}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    ...batches,
  };
  return specs.map((spec) => ({ ...spec, env: { ...spec.env, ...toConsole } }));
}
