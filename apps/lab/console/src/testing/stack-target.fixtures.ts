// The stack the console is handed in tests: the supervisor's default ports and
// a database URL for each service, lab mode off. A test names only what it is
// about (its databases, the lab token, the admin token) and keeps the rest.
import type { StackDatabases, StackPorts, StackTarget } from '@effectively-once/lab-stack';

export const TEST_STACK_PORTS: StackPorts = {
  gateway: 3000,
  order: 3001,
  inventory: 3002,
  payment: 3003,
  notification: 3004,
  paymentProvider: 3005,
  mailSink: 3006,
  smtp: 2525,
};

/** Every database of the stack at the one URL: a test with a single real database. */
export function oneDatabaseForAll(url: string): StackDatabases {
  return {
    adminUrl: url,
    order: url,
    inventory: url,
    payment: url,
    notification: url,
    paymentProvider: url,
    eventStore: url,
  };
}

/** A stack on 127.0.0.1 with the fixed ports; `overrides` replaces whole fields. */
export function testStackTarget(overrides: Partial<StackTarget> = {}): StackTarget {
  return {
    gatewayUrl: 'http://127.0.0.1:3000',
    ports: { ...TEST_STACK_PORTS },
    databases: {
      adminUrl: 'postgres://localhost/postgres',
      order: 'postgres://localhost/order',
      inventory: 'postgres://localhost/inventory',
      payment: 'postgres://localhost/payment',
      notification: 'postgres://localhost/notification',
      paymentProvider: 'postgres://localhost/provider',
      eventStore: 'postgres://localhost/events',
    },
    faults: { enabled: false },
    ...overrides,
  };
}
