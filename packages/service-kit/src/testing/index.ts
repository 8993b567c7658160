// What the services' own tests borrow from the kit.
export { failingAtStep, type FailingStepReporter } from './failing-at-step.js';
export { failOnNetworkInsideTransactions } from './network-guard.js';
export { rawHttp, type RawResponse } from './raw-http.js';
export {
  SPAN_KIND,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from './otlp-receiver.js';
export { recordSpans, type RecordedSpan, type SpanRecorder } from './recorded-spans.js';
