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

/** The instrumentations this kit runs, by the names OTEL_NODE_DISABLED_INSTRUMENTATIONS uses. */
export const INSTRUMENTATION_NAMES = ['http', 'undici', 'pg'] as const;
export type InstrumentationName = (typeof INSTRUMENTATION_NAMES)[number];

/** A name as the variable takes it: the package name without `@opentelemetry/instrumentation-`. */
const instrumentationName = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]*$/,
    'name an instrumentation without its package prefix, as in OTEL_NODE_DISABLED_INSTRUMENTATIONS=pg',
  );

/**
 * The instrumentations OTEL_NODE_DISABLED_INSTRUMENTATIONS turns off, as
 * OpenTelemetry's Node.js auto-instrumentation reads it: a comma-separated
 * list of names without the `@opentelemetry/instrumentation-` prefix. Names of
 * instrumentations this kit does not run (`fs`, `express`) are allowed and
 * change nothing, so one variable can serve several kinds of process; a full
 * package name is refused, since it would silently disable nothing.
 *
 * @example
 * disabledInstrumentations({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg, fs' }); // Set { 'pg' }
 */
export function disabledInstrumentations(
  env: NodeJS.ProcessEnv = process.env,
): ReadonlySet<InstrumentationName> {
  const names = (env['OTEL_NODE_DISABLED_INSTRUMENTATIONS'] ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  const disabled = new Set<InstrumentationName>();
  for (const name of names) {
    const parsed = instrumentationName.safeParse(name);
    if (!parsed.success) {
      throw new Error(
        `OTEL_NODE_DISABLED_INSTRUMENTATIONS: "${name}" is not an instrumentation's name; ${parsed.error.issues[0]?.message ?? ''} (this kit runs ${INSTRUMENTATION_NAMES.join(', ')})`,
      );
    }
    const known = INSTRUMENTATION_NAMES.find((candidate) => candidate === parsed.data);
    if (known !== undefined) disabled.add(known);
  }
  return disabled;
}
