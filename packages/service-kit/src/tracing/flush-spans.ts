// A service ends with process.exit() (shutdown.ts): the spans the batch
// processor still holds would be lost with it, the last ones of a test or of
// a deployment's rollout included.
import { trace, type TracerProvider } from '@opentelemetry/api';

/** Longest a shutdown waits for the exporter: a collector that is down must not hold the process. */
const FLUSH_TIMEOUT_MS = 2_000;

/** The API's proxy, whose delegate is the SDK's provider that register.ts registered. */
interface ProxyProvider extends TracerProvider {
  getDelegate(): TracerProvider;
}

function isProxy(provider: TracerProvider): provider is ProxyProvider {
  return 'getDelegate' in provider && typeof provider.getDelegate === 'function';
}

function flushable(provider: TracerProvider): provider is TracerProvider & {
  forceFlush(): Promise<void>;
} {
  return 'forceFlush' in provider && typeof provider.forceFlush === 'function';
}

/**
 * Exports the spans still buffered, waiting at most two seconds; resolves at
 * once when no SDK runs (register.ts started none). Never rejects: a span
 * that cannot be exported is dropped, as the SDK drops it anyway.
 */
export async function flushSpans(): Promise<void> {
  const global = trace.getTracerProvider();
  const provider = isProxy(global) ? global.getDelegate() : global;
  if (!flushable(provider)) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    provider.forceFlush().catch(() => undefined),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, FLUSH_TIMEOUT_MS);
    }),
  ]);
  clearTimeout(timer);
}
