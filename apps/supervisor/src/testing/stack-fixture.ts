// The stack input the supervisor's defineStack tests start from: each spec
// varies it, and an extension's specs start from it too.
import { defineStack, FIXED_PORTS, type DatabaseUrls, type StackInput } from '../stack.js';

export const databases: DatabaseUrls = {
  order: 'postgres://pg@127.0.0.1:5432/eo_order',
  inventory: 'postgres://pg@127.0.0.1:5432/eo_inventory',
  payment: 'postgres://pg@127.0.0.1:5432/eo_payment',
  notification: 'postgres://pg@127.0.0.1:5432/eo_notification',
  paymentProvider: 'postgres://pg@127.0.0.1:5432/eo_payment_provider',
  eventStore: 'postgres://pg@127.0.0.1:5432/eo_event_store',
};
export const adminUrl = 'postgres://pg@127.0.0.1:5432/postgres';
export const defaultInput: StackInput = {
  host: '127.0.0.1',
  ports: FIXED_PORTS,
  databases,
  adminUrl,
  logLevel: 'info',
  inheritedEnv: { PATH: '/usr/bin' },
};
export const defaultStack = defineStack(defaultInput);

/** The process called `name`, of the default stack unless another is given. */
export function processNamed(name: string, specs = defaultStack) {
  const found = specs.find((candidate) => candidate.name === name);
  if (found === undefined) throw new Error(`no ${name} in the stack`);
  return found;
}
