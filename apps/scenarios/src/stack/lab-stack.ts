// What the runner needs to know about a stack started with fault injection:
// where its services listen, where its databases are, and the lab token. The
// supervisor writes it to its state file and sends it over IPC when ready.
import { z } from 'zod';

export const LabStack = z.object({
  gatewayUrl: z.url(),
  ports: z.record(z.string(), z.number().int()),
  databases: z.record(z.string(), z.string()),
  faults: z.object({ enabled: z.boolean(), token: z.string().min(16).optional() }),
  /** The services' ADMIN_TOKEN (parked messages); the lab token when the runner started the stack. */
  adminToken: z.string().min(16).optional(),
});
export type LabStack = z.infer<typeof LabStack>;

/** The services whose consumers the lab can fault, each with its port key in the state. */
export const LAB_SERVICES = [
  'order',
  'inventory',
  'inventory-2',
  'payment',
  'notification',
] as const;
export type LabService = (typeof LAB_SERVICES)[number];

/** Port keys differ in spelling between versions of the state file; accept both. */
const PORT_KEYS: Readonly<Record<LabService, readonly string[]>> = {
  order: ['order'],
  inventory: ['inventory'],
  'inventory-2': ['inventory-2', 'inventory2', 'inventorySecond'],
  payment: ['payment'],
  notification: ['notification'],
};

export function serviceUrl(stack: LabStack, service: LabService): string {
  for (const key of PORT_KEYS[service]) {
    const port = stack.ports[key];
    if (port !== undefined) return `http://127.0.0.1:${String(port)}`;
  }
  throw new Error(
    `The stack runs no "${service}" process (ports: ${Object.keys(stack.ports).join(', ')}). Was it started with STACK_FAULTS=true?`,
  );
}

/** The database of a service; inventory-2 shares inventory's. */
export function serviceDatabase(
  stack: LabStack,
  service: LabService | 'eventStore' | 'paymentProvider',
): string {
  const key = service === 'inventory-2' ? 'inventory' : service;
  const url = stack.databases[key];
  if (url === undefined) throw new Error(`The stack state names no "${key}" database.`);
  return url;
}

/** The lab token, or a clear refusal when the stack runs without fault injection. */
export function labToken(stack: LabStack): string {
  if (!stack.faults.enabled || stack.faults.token === undefined) {
    throw new Error(
      'This stack runs without fault injection. Start one with `STACK_FAULTS=true pnpm start`, or stop it and let `pnpm scenario` start its own.',
    );
  }
  return stack.faults.token;
}
