// The bodies the gateway answers itself (everything else it forwards). Kept
// beside the OpenAPI builder because only the gateway and the document use them.
import { z } from 'zod';

/** The processes behind the gateway, by the name the health routes use. */
export const ServiceName = z.enum([
  'order',
  'inventory',
  'payment',
  'notification',
  'payment-provider',
  'mail-sink',
]);
export type ServiceName = z.infer<typeof ServiceName>;

/**
 * `ready`: its /ready answered 2xx. `not_ready`: it answered, but not 2xx
 * (a dependency such as its database is down). `unreachable`: no answer in time.
 */
export const ServiceReadiness = z.enum(['ready', 'not_ready', 'unreachable']);
export type ServiceReadiness = z.infer<typeof ServiceReadiness>;

export const HealthReport = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    services: z.record(ServiceName, ServiceReadiness),
  })
  .meta({ id: 'HealthReport' });
export type HealthReport = z.infer<typeof HealthReport>;

export const ServiceNameParams = z.object({ service: ServiceName });

/** A service's liveness answer, forwarded from its /health. */
export const ServiceLiveness = z
  .object({ status: z.literal('ok') })
  .meta({ id: 'ServiceLiveness' });
