export {
  describeEventStoreContract,
  describeMultiConsumerContract,
  type ContractHarness,
} from './contract/index.js';
export { ChildStoreSpecSchema, type ChildStoreSpec } from './child-store-spec.js';
export { groupOnOwnPrefix } from './contract/group-contract.js';
export { newEvent, newEvents, uniqueName } from './contract/harness.js';
export { receive, waitUntil } from './receiver.js';
