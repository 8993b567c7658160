// The spans a test's own code makes, kept in memory: the Node SDK with a span
// processor that records every span as it ends, and nothing exported. Its
// context manager and W3C propagator are the ones a traced process runs.
import { context, propagation, trace } from '@opentelemetry/api';
import { NodeSDK } from '@opentelemetry/sdk-node';

type SpanProcessor = NonNullable<
  NonNullable<ConstructorParameters<typeof NodeSDK>[0]>['spanProcessors']
>[number];
/** A span as it ended: name, kind, attributes, parent, links, events, status. */
export type RecordedSpan = Parameters<SpanProcessor['onEnd']>[0];

export interface SpanRecorder {
  /** Every span ended since the recorder started, in the order they ended. */
  readonly spans: readonly RecordedSpan[];
  /** Stops the SDK and takes its globals away, so the next test file starts without them. */
  stop(): Promise<void>;
}

/**
 * Starts recording spans for this process (one recorder at a time).
 *
 * @example
 * const recorder = recordSpans();
 * await fireDueDeadlines(deps, { limit: 10 });
 * expect(recorder.spans.map((span) => span.name)).toContain('fire payment deadline');
 * await recorder.stop();
 */
export function recordSpans(): SpanRecorder {
  const spans: RecordedSpan[] = [];
  const recorder: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (span) => void spans.push(span),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const sdk = new NodeSDK({
    spanProcessors: [recorder],
    instrumentations: [],
    resourceDetectors: [],
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  return {
    spans,
    stop: async () => {
      await sdk.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
