// The stack's restarts: every start and death of one of its processes (the
// embedded PostgreSQL server included), as the supervisor reports them over
// the console's IPC channel. Kept in memory, the newest `capacity`, for the
// system view: a crash the supervisor recovered from leaves no other trace
// on the page. Started without a supervisor there is no channel, and no list.
import { ProcessEventMessage } from '@effectively-once/stack-protocol';
import type { ProcessEventView } from '../api/console.api.js';
import type { OutcomeChannel } from './delivery-outcomes.js';

export interface ProcessEvents {
  /** Newest first. */
  recent(): ProcessEventView[];
  close(): void;
}

export function toProcessEventView(message: ProcessEventMessage): ProcessEventView {
  const { event } = message;
  return event.type === 'started'
    ? { at: message.at, process: event.name, pid: event.pid, what: 'started', restartInMs: null }
    : {
        at: message.at,
        process: event.name,
        pid: event.pid,
        what: `exited with ${event.signal ?? `code ${String(event.code)}`}`,
        restartInMs: event.restartInMs,
      };
}

/**
 * @example
 * const restarts = listenForProcessEvents({ channel: process, capacity: 100 });
 * restarts.recent(); // [{ process: 'postgres', what: 'started', … }, { process: 'postgres', what: 'exited with SIGKILL', … }]
 */
export function listenForProcessEvents(input: {
  channel: OutcomeChannel;
  capacity: number;
}): ProcessEvents {
  const kept: ProcessEventView[] = [];
  const onMessage = (message: unknown): void => {
    const parsed = ProcessEventMessage.safeParse(message);
    if (!parsed.success) return;
    kept.unshift(toProcessEventView(parsed.data));
    if (kept.length > input.capacity) kept.pop();
  };
  if (input.channel.connected) input.channel.on('message', onMessage);
  return {
    recent: () => [...kept],
    close: () => {
      input.channel.off('message', onMessage);
    },
  };
}
