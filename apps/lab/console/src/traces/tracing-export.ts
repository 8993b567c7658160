// Where the stack's spans go, as the OpenTelemetry environment variables say
// (the specification's SDK configuration): every process of the stack gets the
// same OTEL_* variables from the supervisor, so the console's own tell it. The
// trace view uses it to say why it shows nothing. Pure.
import type { TracingExport } from '../api/console.api.js';
import { OTLP_TRACES_PATH } from './otlp-receiver.routes.js';

export interface OtelEnvironment {
  OTEL_SDK_DISABLED?: string | undefined;
  OTEL_TRACES_EXPORTER?: string | undefined;
  OTEL_EXPORTER_OTLP_ENDPOINT?: string | undefined;
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?: string | undefined;
}

/** How the console is addressed: its port, and the names it answers to (loopback and the stack's host). */
export interface ConsoleAddress {
  port: number;
  hostnames: readonly string[];
}

/** The traces endpoint the SDK uses: the per-signal variable as is, the general one plus /v1/traces. */
function tracesEndpoint(env: OtelEnvironment): string | null {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}${OTLP_TRACES_PATH}`;
  }
  return null;
}

function isTheConsole(endpoint: string, console: ConsoleAddress): boolean {
  try {
    const url = new URL(endpoint);
    return (
      console.hostnames.includes(url.hostname) &&
      url.port === String(console.port) &&
      url.pathname === OTLP_TRACES_PATH
    );
  } catch {
    return false;
  }
}

/**
 * `off` when the SDK is disabled, no traces exporter is configured, or no
 * endpoint is set at all (the supervisor sets one, pointing at the console,
 * whenever the console runs and the user chose no exporter). An exporter other
 * than OTLP (`OTEL_TRACES_EXPORTER=console`, `zipkin`) sends spans elsewhere too.
 *
 * @example
 * tracingExport({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, { port: 3007, hostnames: ['127.0.0.1'] });
 * // { to: 'elsewhere', endpoint: 'http://127.0.0.1:4318/v1/traces' }
 */
export function tracingExport(env: OtelEnvironment, console: ConsoleAddress): TracingExport {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { to: 'off', endpoint: null };
  const exporter = env.OTEL_TRACES_EXPORTER?.trim().toLowerCase();
  if (exporter === 'none') return { to: 'off', endpoint: null };
  if (exporter !== undefined && exporter !== '' && exporter !== 'otlp') {
    return { to: 'elsewhere', endpoint: null };
  }
  const endpoint = tracesEndpoint(env);
  if (endpoint === null) return { to: 'off', endpoint: null };
  return isTheConsole(endpoint, console)
    ? { to: 'console', endpoint: null }
    : { to: 'elsewhere', endpoint };
}
