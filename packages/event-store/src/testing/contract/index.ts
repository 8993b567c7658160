// One contract for every back end: the behaviour the port promises, proven
// against a real store. Each back end's *.int.spec.ts calls it with its harness.
import { afterAll, beforeAll, describe } from 'vitest';
import type { EventStore } from '../../port/event-store.js';
import { adminContract } from './admin-contract.js';
import { appendContract } from './append-contract.js';
import { consumerContract } from './consumer-contract.js';
import { flowControlContract } from './flow-control-contract.js';
import { groupContract } from './group-contract.js';
import type { ContractHarness } from './harness.js';
import { orderingContract } from './ordering-contract.js';

export type { ContractHarness } from './harness.js';

/**
 * Declares the contract suite for one back end.
 *
 * @example
 * describeEventStoreContract('embedded PostgreSQL', async () => postgresHarness(url));
 */
export function describeEventStoreContract(
  name: string,
  setup: () => Promise<ContractHarness>,
): void {
  describe(`event-store contract: ${name}`, () => {
    let harness: ContractHarness | undefined;
    let store: EventStore | undefined;
    beforeAll(async () => {
      harness = await setup();
      store = await harness.openStore();
    });
    afterAll(async () => {
      await store?.close();
    });
    const context = {
      harness: () => harness ?? fail('the harness'),
      store: () => store ?? fail('the store'),
    };
    describe('appends and reads', () => appendContract(context));
    describe('subscription groups', () => groupContract(context));
    describe('group administration', () => adminContract(context));
    describe('consumers', () => consumerContract(context));
    describe('global order', () => orderingContract(context));
    describe('flow control', () => flowControlContract(context));
  });
}

function fail(what: string): never {
  throw new Error(`${what} is not set up: beforeAll failed.`);
}
