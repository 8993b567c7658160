// Traces (docs/observability.md#traces): what the services and the lab use of them.
export { tracingEnabled } from './config.js';
export { flushSpans } from './flush-spans.js';
export { activeTraceId } from './active-trace-id.js';
export { inSmtpReceiveSpan, inSmtpSendSpan } from './smtp-spans.js';
export { inInternalSpan, recordSpanFailure, type InternalSpanInput } from './internal-span.js';
