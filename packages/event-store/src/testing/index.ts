export {
  describeEventStoreContract,
  describeMultiConsumerContract,
  type ContractHarness,
} from './contract/index.js';
export { ChildStoreSpecSchema, type ChildStoreSpec } from './child-store-spec.js';
export { newEvent, newEvents, uniqueName } from './contract/harness.js';
export { receive, waitUntil } from './receiver.js';
