// What the runner needs to know about a stack started with fault injection:
// where its services listen, where its databases are, and the lab token: the
// contracts' StackTarget, which the supervisor writes to its state file and
// hands to the console process.
import { StackTarget } from '@effectively-once/lab-stack';

export const LabStack = StackTarget;
export type LabStack = StackTarget;

/** The processes whose consumers the lab can fault. */
export const LAB_SERVICES = [
  'order',
  'inventory',
  'inventory-2',
  'payment',
  'notification',
] as const;
export type LabService = (typeof LAB_SERVICES)[number];

export function serviceUrl(stack: LabStack, service: LabService): string {
  const port = service === 'inventory-2' ? stack.ports.inventory2 : stack.ports[service];
  if (port === undefined) {
    throw new Error(
      'The stack runs no inventory-2: it was started without fault injection (STACK_FAULTS=true).',
    );
  }
  // Every process listens on the host the gateway does (the supervisor's HOST).
  const gateway = new URL(stack.gatewayUrl);
  return `${gateway.protocol}//${gateway.hostname}:${String(port)}`;
}

type DatabaseName = Exclude<keyof LabStack['databases'], 'adminUrl' | 'added'>;

/** The database of a service; inventory-2 shares inventory's. */
export function serviceDatabase(stack: LabStack, service: LabService | DatabaseName): string {
  return stack.databases[service === 'inventory-2' ? 'inventory' : service];
}

/** The lab token, or a clear refusal when the stack runs without fault injection. */
export function labToken(stack: LabStack): string {
  if (!stack.faults.enabled) {
    throw new Error(
      'This stack runs without fault injection. Start one with `STACK_FAULTS=true pnpm start`, or stop it and let `pnpm scenario` start its own.',
    );
  }
  return stack.faults.token;
}
