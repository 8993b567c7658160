// A server-sent event stream for as long as the component is mounted. The
// browser reconnects by itself after a network error (the server asks for
// `retry: 2000`); after a refused connection (the stream is closed for good)
// this hook opens a new one itself. Each reconnect brings the full catch-up
// again, which is why every consumer of a stream merges by key.
import { useEffect, useRef, useState } from 'preact/hooks';

export type StreamState = 'connecting' | 'open' | 'reconnecting';

const REOPEN_AFTER_MS = 2_000;

export interface StreamHandlers<T> {
  /** Each default-event message, parsed from JSON. */
  readonly onMessage: (message: T) => void;
  /** The server sent everything it held; live items follow. */
  readonly onCaughtUp?: () => void;
}

/** `url` null: no stream (e.g. a finished scenario run). The handlers may change on every render. */
export function useEventSource<T>(url: string | null, handlers: StreamHandlers<T>): StreamState {
  const [state, setState] = useState<StreamState>('connecting');
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    if (url === null) return undefined;
    let source: EventSource | null = null;
    let reopenTimer: ReturnType<typeof setTimeout> | undefined;

    const open = (): void => {
      const next = new EventSource(url);
      source = next;
      next.onopen = () => setState('open');
      next.onmessage = (event: MessageEvent<string>) => {
        // The console validated the message against the schema T names.
        latest.current.onMessage(JSON.parse(event.data) as T);
      };
      next.addEventListener('caught-up', () => latest.current.onCaughtUp?.());
      next.onerror = () => {
        setState('reconnecting');
        if (next.readyState !== EventSource.CLOSED) return;
        next.close();
        reopenTimer = setTimeout(open, REOPEN_AFTER_MS);
      };
    };

    setState('connecting');
    open();
    return () => {
      clearTimeout(reopenTimer);
      source?.close();
    };
  }, [url]);

  return state;
}

/** The words shown next to a live table. */
export function streamStateText(state: StreamState): string {
  switch (state) {
    case 'connecting':
      return 'Live updates: connecting';
    case 'open':
      return 'Live updates: on';
    case 'reconnecting':
      return 'Live updates: reconnecting';
    default:
      return assertNever(state);
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected stream state ${String(value)}`);
}
