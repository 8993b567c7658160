// What the services' own tests borrow from the kit.
export { failingAt, type FailingFaultPoints } from './failing-fault-points.js';
export { failOnNetworkInsideTransactions } from './network-guard.js';
export { rawHttp, type RawResponse } from './raw-http.js';
