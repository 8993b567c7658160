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

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The traces endpoint the SDK uses: the per-signal variable as is, the general one plus /v1/traces. */
function tracesEndpoint(env: OtelEnvironment): string | null {
  if (env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (env.OTEL_EXPORTER_OTLP_ENDPOINT) {
    return `${env.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}${OTLP_TRACES_PATH}`;
  }
  return null;
}

function isTheConsole(endpoint: string, consolePort: number): boolean {
  try {
    const url = new URL(endpoint);
    return (
      LOOPBACK.has(url.hostname) &&
      url.port === String(consolePort) &&
      url.pathname === OTLP_TRACES_PATH
    );
  } catch {
    return false;
  }
}

/**
 * `off` when the SDK is disabled, no traces exporter is configured, or no
 * endpoint is set at all (the supervisor sets one, pointing at the console,
 * whenever the console runs and no endpoint of one's own was given).
 *
 * @example
 * tracingExport({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }, 3007); // { to: 'elsewhere', endpoint: 'http://127.0.0.1:4318/v1/traces' }
 */
export function tracingExport(env: OtelEnvironment, consolePort: number): TracingExport {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return { to: 'off', endpoint: null };
  if (env.OTEL_TRACES_EXPORTER?.trim().toLowerCase() === 'none') {
    return { to: 'off', endpoint: null };
  }
  const endpoint = tracesEndpoint(env);
  if (endpoint === null) return { to: 'off', endpoint: null };
  return isTheConsole(endpoint, consolePort)
    ? { to: 'console', endpoint: null }
    : { to: 'elsewhere', endpoint };
}
