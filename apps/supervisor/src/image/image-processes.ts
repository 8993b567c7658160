// The processes one container image runs, by the name `docker run IMAGE <name>`
// takes: the four saga services, the gateway, the two stand-ins for external
// systems, and every service `pnpm new service` added. The same entries
// `pnpm start` bundles; the supervisor and its extensions stay out of the image.
import { ADDED_SERVICES } from '../added-services.js';
import { ENTRIES } from '../stack.js';

/**
 * @example
 * imageProcesses(); // { order: 'apps/order/src/server.ts', …, gateway: 'apps/gateway/src/server.ts' }
 */
export function imageProcesses(): Readonly<Record<string, string>> {
  return {
    order: ENTRIES.order,
    inventory: ENTRIES.inventory,
    payment: ENTRIES.payment,
    notification: ENTRIES.notification,
    gateway: ENTRIES.gateway,
    'payment-provider': ENTRIES.paymentProvider,
    'mail-sink': ENTRIES.mailSink,
    ...Object.fromEntries(
      ADDED_SERVICES.map((service) => [service.name, `apps/${service.name}/src/server.ts`]),
    ),
  };
}
