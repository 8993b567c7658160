// The supervisor's side of a crash, against a stand-in for the guardian's
// CrashRecovery (the real one is in supervised-postgres.int.spec.ts): when it
// starts the server again, what it does when a start fails, and that a stack
// that is stopping starts nothing.
import type { CrashRecovery, PostgresCrash, PostgresRecovery } from '@effectively-once/postgres';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RestartPolicy } from './restart-policy.js';
import type { ProcessEvent } from './supervised-process.js';
import { supervisePostgres } from './supervised-postgres.js';

const policy: RestartPolicy = { initialDelayMs: 250, maxDelayMs: 2_000, stableAfterMs: 30_000 };
const CRASH: PostgresCrash = { pid: 100, code: null, signal: 'SIGKILL' };

/** A server whose next starts fail or succeed as listed; `crash()` plays the guardian's report. */
function serverWhoseStarts(outcomes: ('fails' | 'starts')[]) {
  const listeners: ((crash: PostgresCrash) => void)[] = [];
  let nextPid = 200;
  const recovery: CrashRecovery = {
    pid: undefined,
    onCrash: (listener) => void listeners.push(listener),
    recover: vi.fn((): Promise<PostgresRecovery> => {
      if (outcomes.shift() === 'fails') {
        return Promise.reject(new Error('pre-existing shared memory block is still in use'));
      }
      nextPid += 1;
      return Promise.resolve({ pid: nextPid, startedAt: new Date().toISOString() });
    }),
  };
  return { recovery, crash: () => listeners.forEach((listener) => listener(CRASH)) };
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('supervisePostgres', () => {
  it('given a crash and two failed starts, then it tries again after growing pauses until one starts', async () => {
    const server = serverWhoseStarts(['fails', 'fails', 'starts']);
    const events: ProcessEvent[] = [];
    const failures: number[] = [];
    const supervised = supervisePostgres({
      recovery: server.recovery,
      policy,
      onEvent: (event) => events.push(event),
      onStartFailed: ({ restartInMs }) => failures.push(restartInMs),
    });

    server.crash();
    await vi.runAllTimersAsync();

    expect(events).toEqual([
      {
        type: 'exited',
        name: 'postgres',
        pid: 100,
        code: null,
        signal: 'SIGKILL',
        restartInMs: 250,
      },
      { type: 'started', name: 'postgres', pid: 201 },
    ]);
    expect(failures).toEqual([500, 1_000]);
    expect(server.recovery.recover).toHaveBeenCalledTimes(3);
    expect(supervised.state).toBe('running');
  });

  it('given a stack that is stopping, then a crash is not answered with a start', async () => {
    const server = serverWhoseStarts(['starts']);
    const supervised = supervisePostgres({
      recovery: server.recovery,
      policy,
      onEvent: () => undefined,
      onStartFailed: () => undefined,
    });

    supervised.stop();
    server.crash();
    await vi.runAllTimersAsync();

    expect(server.recovery.recover).not.toHaveBeenCalled();
    expect(supervised.state).toBe('stopped');
  });
});
