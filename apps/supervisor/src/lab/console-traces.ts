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
 * Every process exports its spans to the console's receiver, as OTLP/HTTP
 * JSON; unchanged when the console does not run or the user set an exporter.
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
  const toConsole = {
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `http://${host}:${String(consolePort)}/v1/traces`,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  };
  return specs.map((spec) => ({ ...spec, env: { ...spec.env, ...toConsole } }));
}
