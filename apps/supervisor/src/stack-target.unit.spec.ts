import { describe, expect, it } from 'vitest';
import { FIXED_PORTS } from './stack.js';
import { stackTarget, type StackTargetInput } from './stack-target.js';

const databases = {
  order: 'postgres://db/eo_order',
  inventory: 'postgres://db/eo_inventory',
  payment: 'postgres://db/eo_payment',
  notification: 'postgres://db/eo_notification',
  paymentProvider: 'postgres://db/eo_payment_provider',
  eventStore: 'postgres://db/eo_event_store',
};
const input: StackTargetInput = {
  host: '127.0.0.1',
  ports: FIXED_PORTS,
  adminUrl: 'postgres://db/postgres',
  databases,
  inheritedEnv: {},
};

describe('stackTarget', () => {
  it('given no added service, then the databases are the saga’s and the server’s, nothing else', () => {
    expect(stackTarget(input).databases).toEqual({
      adminUrl: 'postgres://db/postgres',
      ...databases,
    });
  });

  it('given services added with pnpm new service, then their databases are listed by name', () => {
    // Given two added services with their databases
    const target = stackTarget({
      ...input,
      added: [
        { name: 'shipping', port: 3008, databaseUrl: 'postgres://db/eo_shipping' },
        { name: 'loyalty', port: 3009, databaseUrl: 'postgres://db/eo_loyalty' },
      ],
    });
    // Then the state file names each, beside the saga's
    expect(target.databases).toEqual({
      adminUrl: 'postgres://db/postgres',
      ...databases,
      added: { shipping: 'postgres://db/eo_shipping', loyalty: 'postgres://db/eo_loyalty' },
    });
  });
});
