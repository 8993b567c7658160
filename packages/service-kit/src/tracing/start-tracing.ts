// The OpenTelemetry Node SDK for one process: traces only (metrics stay with
// Prometheus, logs with stdout), exported as the OTEL_* variables say, the
// instrumentations of node:http, undici/fetch and pg registered before the
// process imports them (register.ts). OTEL_NODE_DISABLED_INSTRUMENTATIONS
// turns any of the three off (config.ts).
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { resourceAttributesEnvDetector, serviceNameEnvDetector } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { disabledInstrumentations, type InstrumentationName } from './config.js';

/**
 * Probes and scrapes every few seconds: spans of them would bury the saga's.
 * And a receiver of spans (the console's /v1/traces) would make a span of
 * every export it receives, which would be exported in turn, without end.
 */
const UNTRACED_PATHS = ['/health', '/ready', '/live', '/metrics', '/api/health', '/v1/traces'];

function untraced(url: string | undefined): boolean {
  const pathname = (url ?? '').split('?')[0] ?? '';
  return UNTRACED_PATHS.includes(pathname);
}

/**
 * Starts the SDK: the span processor, exporter and sampler come from the
 * environment (OTEL_EXPORTER_OTLP_*, OTEL_TRACES_SAMPLER, parent-based by
 * default, so an order's trace is kept or dropped whole), the resource from
 * OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES. Returns the SDK, whose
 * `shutdown()` flushes the spans still buffered.
 */
export function startTracing(): NodeSDK {
  const disabled = disabledInstrumentations();
  const sdk = new NodeSDK({
    // Only the environment's attributes: the host and process detectors would
    // add a dozen attributes to every export, and the random instance id
    // detector would replace the replica's name.
    resourceDetectors: [resourceAttributesEnvDetector, serviceNameEnvDetector],
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: instrumentations().flatMap(([name, make]) =>
      disabled.has(name) ? [] : [make()],
    ),
  });
  sdk.start();
  return sdk;
}

/** Each instrumentation with its name, made only when it is wanted. */
type Instrumentation = HttpInstrumentation | UndiciInstrumentation | PgInstrumentation;
function instrumentations(): [InstrumentationName, () => Instrumentation][] {
  return [
    [
      'http',
      () =>
        new HttpInstrumentation({
          ignoreIncomingRequestHook: (request) => untraced(request.url),
          // The exporter's own requests would make spans about exporting spans.
          ignoreOutgoingRequestHook: (request) => request.path?.endsWith('/v1/traces') === true,
        }),
    ],
    [
      'undici',
      () =>
        new UndiciInstrumentation({
          ignoreRequestHook: (request) => untraced(request.path),
          // The card processor's idempotency key on the payment's client span:
          // which of the provider's records a call made or found.
          headersToSpanAttributes: { requestHeaders: ['idempotency-key'] },
        }),
    ],
    // A span per pool checkout told nothing a reader of the trace needs (the
    // query spans show the waits) and was a quarter of an order's spans:
    // 35 of 142 in one order's trace, each created, exported and stored.
    ['pg', () => new PgInstrumentation({ requireParentSpan: true, ignoreConnectSpans: true })],
  ];
}
