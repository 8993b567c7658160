// What the services' own tests borrow from the kit.
export { failingAt, type FailingFaultPoints } from './failing-fault-points.js';
export { failOnNetworkInsideTransactions } from './network-guard.js';
export { rawHttp, type RawResponse } from './raw-http.js';
export {
  SPAN_KIND,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from './otlp-receiver.js';
