// Every fault the soak schedules, in one list: add an injector here and the
// planner schedules it at least once in every soak.
import type { FaultInjector } from './fault.js';
import { networkFaults, postgresRestart, providerDown, smtpDown } from './lab-control.js';
import { sigkillDuringRestart, sigkillOf, sigkillRelayHolder } from './sigkill.js';
import { lowDbTimeouts } from './low-db-timeouts.js';
import { terminateBackends } from './terminate-backends.js';

/** Every process kind a lab stack runs (inventory-2 is the competing consumer). */
export const PROCESS_KINDS = [
  'order',
  'inventory',
  'inventory-2',
  'payment',
  'notification',
  'payment-provider',
  'mail-sink',
  'console',
  'gateway',
] as const;

export function faultInjectors(): FaultInjector[] {
  return [
    ...PROCESS_KINDS.map(sigkillOf),
    sigkillRelayHolder,
    sigkillDuringRestart,
    terminateBackends,
    lowDbTimeouts,
    ...networkFaults,
    postgresRestart,
    providerDown,
    smtpDown,
  ];
}
