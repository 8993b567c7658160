import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { listenForProcessEvents } from './process-events.js';

/** The console's IPC channel as the supervisor feeds it. */
function channel() {
  return Object.assign(new EventEmitter(), { connected: true });
}

const died = (name: string, at: string) => ({
  type: 'process-event',
  at,
  event: { type: 'exited', name, pid: 4242, code: null, signal: 'SIGKILL', restartInMs: 250 },
});

describe('the stack restarts the console lists', () => {
  it('given a death and a start of the embedded server, then both are listed, newest first, in words', () => {
    const supervisor = channel();
    const restarts = listenForProcessEvents({ channel: supervisor, capacity: 10 });

    supervisor.emit('message', died('postgres', '2026-12-04T10:00:00.000Z'));
    supervisor.emit('message', {
      type: 'process-event',
      at: '2026-12-04T10:00:00.400Z',
      event: { type: 'started', name: 'postgres', pid: 4300 },
    });

    expect(restarts.recent()).toEqual([
      {
        at: '2026-12-04T10:00:00.400Z',
        process: 'postgres',
        pid: 4300,
        what: 'started',
        restartInMs: null,
      },
      {
        at: '2026-12-04T10:00:00.000Z',
        process: 'postgres',
        pid: 4242,
        what: 'exited with SIGKILL',
        restartInMs: 250,
      },
    ]);
  });

  it('given more events than it keeps, then the oldest go, and other messages are ignored', () => {
    const supervisor = channel();
    const restarts = listenForProcessEvents({ channel: supervisor, capacity: 2 });

    supervisor.emit('message', { type: 'delivery-outcome' });
    for (const name of ['order', 'payment', 'payment-2']) {
      supervisor.emit('message', died(name, '2026-12-04T10:00:00.000Z'));
    }

    expect(restarts.recent().map((event) => event.process)).toEqual(['payment-2', 'payment']);
  });
});
