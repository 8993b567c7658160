// What lab mode adds to the stack's state file, its ready message and the
// console's CONSOLE_STACK: whether fault injection is on, with its token, and
// the services' admin token. Read back with @effectively-once/lab-stack.
import type { StackFaults } from '@effectively-once/lab-stack';
import type { LabSettings } from './config.js';

/**
 * `faults`, and the services' ADMIN_TOKEN (parked messages, replay): the
 * inherited one, and in lab mode without one the lab token, because the lab's
 * scenarios replay parked messages.
 *
 * @example
 * labState({ faults: { enabled: true, token: 'lab-token-0123456789' }, stack: { inheritedEnv: {} } });
 * // { faults: { enabled: true, token: 'lab-token-0123456789' }, adminToken: 'lab-token-0123456789' }
 */
export function labState(input: {
  readonly faults: LabSettings['faults'];
  readonly stack: { readonly inheritedEnv: Readonly<Record<string, string>> };
}): { faults: StackFaults; adminToken?: string } {
  const { faults } = input;
  const adminToken =
    input.stack.inheritedEnv['ADMIN_TOKEN'] ?? (faults.enabled ? faults.token : undefined);
  return { faults, ...(adminToken === undefined ? {} : { adminToken }) };
}
