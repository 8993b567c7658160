// Each process the image runs, with the function that reads its settings: the
// deploy files are checked by handing each process's environment to its own
// loader, which both validates the values and tells which names it reads.
import { loadGatewayConfig } from '../../apps/gateway/src/config.js';
import { loadInventoryConfig } from '../../apps/inventory/src/config.js';
import { loadMailSinkConfig } from '../../apps/mail-sink/src/config.js';
import { loadNotificationConfig } from '../../apps/notification/src/config.js';
import { loadOrderConfig } from '../../apps/order/src/config.js';
import { loadProviderConfig } from '../../apps/payment-provider/src/config.js';
import { loadPaymentConfig } from '../../apps/payment/src/config.js';

type Loader = (env: NodeJS.ProcessEnv) => unknown;

export const PROCESS_CONFIG_LOADERS: Readonly<Record<string, Loader>> = {
  order: loadOrderConfig,
  inventory: loadInventoryConfig,
  payment: loadPaymentConfig,
  notification: loadNotificationConfig,
  gateway: loadGatewayConfig,
  'payment-provider': loadProviderConfig,
  'mail-sink': loadMailSinkConfig,
};

/**
 * Loads a process's settings from `env` as the process would at start: throws
 * on a bad or missing value, and returns every variable name the loader read.
 *
 * @example
 * const read = namesRead('order', { DATABASE_URL, EVENT_STORE_DATABASE_URL }); // Set { 'HOST', 'PORT', … }
 */
export function namesRead(process: string, env: Readonly<Record<string, string>>): Set<string> {
  const load = PROCESS_CONFIG_LOADERS[process];
  if (load === undefined) throw new Error(`No loader for the process "${process}".`);
  const read = new Set<string>();
  const watched = new Proxy<NodeJS.ProcessEnv>(
    { ...env },
    {
      get: (target, name) => {
        if (typeof name === 'string') read.add(name);
        return target[name as string];
      },
    },
  );
  load(watched);
  return read;
}
