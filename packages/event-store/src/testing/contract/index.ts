// One contract for every back end: the behaviour the port promises, proven
// against a real store. Each back end's *.int.spec.ts calls it with its harness.
import { afterAll, beforeAll, describe } from 'vitest';
import type { EventStore } from '../../port/event-store.js';
import { adminContract } from './admin-contract.js';
import { appendContract, appendToStreamsContract } from './append-contract.js';
import { consumerContract } from './consumer-contract.js';
import { flowControlContract } from './flow-control-contract.js';
import { groupContract } from './group-contract.js';
import type { ContractHarness } from './harness.js';
import { multiConsumerContract } from './multi-consumer-contract.js';
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
    const context = contractContext(setup);
    describe('appends and reads', () => appendContract(context));
    describe('appends to several streams', () => appendToStreamsContract(context));
    describe('subscription groups', () => groupContract(context));
    describe('group administration', () => adminContract(context));
    describe('consumers', () => consumerContract(context));
    describe('several consumers', () =>
      multiConsumerContract({
        store: context.store,
        openStore: () => context.harness().openStore(),
      }));
    describe('global order', () => orderingContract(context));
    describe('flow control', () => flowControlContract(context));
  });
}

/**
 * Declares only the several-consumers part of the suite: for a stand-in that
 * models how a server shares a group's messages (the fake EventStoreDB client)
 * but not the rest of a store.
 *
 * @example
 * describeMultiConsumerContract('EventStoreDB, fake client', () => Promise.resolve(storeOnFake()));
 */
export function describeMultiConsumerContract(
  name: string,
  openStore: () => Promise<EventStore>,
): void {
  describe(`event-store contract, several consumers: ${name}`, () => {
    let store: EventStore | undefined;
    beforeAll(async () => {
      store = await openStore();
    });
    afterAll(async () => {
      await store?.close();
    });
    multiConsumerContract({ store: () => store ?? fail('the store'), openStore });
  });
}

/** Sets the harness and one store up before the tests, and closes the store after them. */
function contractContext(setup: () => Promise<ContractHarness>) {
  let harness: ContractHarness | undefined;
  let store: EventStore | undefined;
  beforeAll(async () => {
    harness = await setup();
    store = await harness.openStore();
  });
  afterAll(async () => {
    await store?.close();
  });
  return {
    harness: () => harness ?? fail('the harness'),
    store: () => store ?? fail('the store'),
  };
}

function fail(what: string): never {
  throw new Error(`${what} is not set up: beforeAll failed.`);
}
