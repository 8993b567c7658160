import plugin from './index.js';
import { ruleTester } from './rule-tester.js';

const rule = plugin.rules['consumer-name-has-version'];

// Must pass: the registry in packages/contracts/src/consumers.ts and the ways consumers are defined.
const versionedRegistry = `
export const CONSUMERS = Object.freeze({
  inventoryReservation: 'inventory-reservation-v1',
  orderSaga: 'order-saga-v2',
});`;

// Must fail: a registry entry and definitions without a version.
const unversionedRegistry = `
export const CONSUMERS = Object.freeze({
  inventoryReservation: 'inventory-reservation-v1',
  loyaltyPoints: 'loyalty-points',
});`;

ruleTester.run('consumer-name-has-version', rule, {
  valid: [
    { name: 'every registry entry is versioned', code: versionedRegistry },
    { name: 'a name from the registry', code: 'defineConsumer({ name: CONSUMERS.orderSaga });' },
    { name: 'a literal name with a version', code: "defineConsumer({ name: 'tally-v1' });" },
    { name: 'a template that ends in a version', code: 'defineConsumer({ name: `${name}-v12` });' },
    { name: 'another object named otherwise', code: "const LABELS = { a: 'no-version' };" },
  ],
  invalid: [
    {
      name: 'a registry entry without a version',
      code: unversionedRegistry,
      errors: [{ messageId: 'unversioned', data: { name: '"loyalty-points"' } }],
    },
    {
      name: 'a literal name without a version',
      code: "defineConsumer({ name: 'inventory-reservation', businessKeys: [] });",
      errors: [{ messageId: 'unversioned' }],
    },
    {
      name: 'a version that is not a suffix',
      code: "defineConsumer({ name: 'v1-inventory-reservation' });",
      errors: [{ messageId: 'unversioned' }],
    },
    {
      name: 'a template whose written end has no version',
      code: 'defineConsumer({ name: `${name}-consumer` });',
      errors: [{ messageId: 'unversioned' }],
    },
    {
      name: 'a registry declared with satisfies',
      code: "const CONSUMERS = { audit: 'audit-V1' } satisfies Record<string, string>;",
      errors: [{ messageId: 'unversioned' }],
    },
  ],
});
