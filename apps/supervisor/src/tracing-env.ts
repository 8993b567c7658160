// Who each process is in its spans: the OpenTelemetry resource, given the
// standard way (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES) so that the SDK
// reads it as it would in any deployment. Pure, like stack.ts.
import type { ProcessSpec } from './stack.js';

/** `payment-2` → `payment`, `inventory-2` → `inventory`; `payment-provider` stays itself. */
function serviceOf(spec: ProcessSpec): string {
  return spec.replicaOf ?? spec.name.replace(/-\d+$/, '');
}

/**
 * Each process's spans say which service, which replica and which version
 * made them: `service.name` (order, payment-provider, gateway, ...),
 * `service.instance.id` (the process's name, `payment-2`), `service.version`.
 * Attributes the user set in OTEL_RESOURCE_ATTRIBUTES are kept, after ours:
 * the SDK lets the later value of a key win.
 *
 * @example
 * withTracingResource(specs, '0.1.0')[0].env['OTEL_SERVICE_NAME']; // 'payment-provider'
 */
export function withTracingResource(specs: readonly ProcessSpec[], version: string): ProcessSpec[] {
  return specs.map((spec) => {
    const own = `service.instance.id=${spec.name},service.version=${version}`;
    const user = spec.env['OTEL_RESOURCE_ATTRIBUTES'];
    return {
      ...spec,
      env: {
        ...spec.env,
        OTEL_SERVICE_NAME: serviceOf(spec),
        OTEL_RESOURCE_ATTRIBUTES: user === undefined ? own : `${own},${user}`,
      },
    };
  });
}
