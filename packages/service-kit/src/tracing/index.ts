// Traces (docs/observability.md#traces): what the services and the lab use of them.
export { tracingEnabled } from './config.js';
export { flushSpans } from './flush-spans.js';
