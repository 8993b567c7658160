// Whether this process exports spans at all. The OpenTelemetry SDK reads every
// OTEL_* variable itself (endpoint, protocol, sampler, resource); this module
// only decides if the SDK starts, so that a process nobody collects spans from
// pays nothing: no SDK, no exporter retrying a port where nothing listens.
import { z } from 'zod';

const tracingEnv = z.object({
  OTEL_SDK_DISABLED: z.string().trim().toLowerCase().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().trim().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().trim().optional(),
  OTEL_TRACES_EXPORTER: z.string().trim().toLowerCase().optional(),
});

/**
 * True when some variable says where spans go: an OTLP endpoint, or an
 * exporter named in OTEL_TRACES_EXPORTER (`console`, `otlp`). False when
 * OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none, and when nothing is
 * set: the specification's default endpoint (localhost:4318) is not assumed.
 *
 * @example
 * tracingEnabled({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' }); // true
 * tracingEnabled({}); // false
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  const parsed = tracingEnv.parse({
    OTEL_SDK_DISABLED: env['OTEL_SDK_DISABLED'] || undefined,
    OTEL_EXPORTER_OTLP_ENDPOINT: env['OTEL_EXPORTER_OTLP_ENDPOINT'] || undefined,
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: env['OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'] || undefined,
    OTEL_TRACES_EXPORTER: env['OTEL_TRACES_EXPORTER'] || undefined,
  });
  if (parsed.OTEL_SDK_DISABLED === 'true') return false;
  if (parsed.OTEL_TRACES_EXPORTER !== undefined) return parsed.OTEL_TRACES_EXPORTER !== 'none';
  return (
    parsed.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined ||
    parsed.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined
  );
}
