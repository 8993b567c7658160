// The embedded PostgreSQL server kept running the way supervised-process.ts
// keeps a service running: when its postmaster dies on its own (a crash, a
// SIGKILL from outside) it is started again on the same data and port, after
// the same pauses as any process, growing while it keeps dying. PostgreSQL
// replays its WAL before it accepts connections, so every committed
// transaction is there; the services' pools and subscriptions reconnect.
import type { CrashRecovery } from '@effectively-once/postgres';
import { nextQuickDeaths, restartDelayMs, type RestartPolicy } from './restart-policy.js';
import type { ProcessEvent } from './supervised-process.js';

/** The name the server's starts and deaths are reported under, beside the processes'. */
export const POSTGRES_PROCESS_NAME = 'postgres';

export interface SupervisePostgresInput {
  /** The embedded server's (PostgresServer.crashRecovery); a DATABASE_URL server has none. */
  recovery: CrashRecovery;
  policy: RestartPolicy;
  /** A death, and each start after it, as for a supervised process. */
  onEvent: (event: ProcessEvent) => void;
  /** A start after a death that failed; the next attempt follows after `restartInMs`. */
  onStartFailed: (failure: { message: string; restartInMs: number }) => void;
}

export interface SupervisedPostgres {
  /** `restarting` from a death until the server accepts connections again. */
  readonly state: 'running' | 'restarting' | 'stopped';
  /** From now on a death is not answered with a start: the stack is stopping. */
  stop(): void;
}

/**
 * @example
 * const supervised = postgres.crashRecovery && supervisePostgres({ recovery: postgres.crashRecovery, policy, onEvent: log, onStartFailed: log });
 * supervised?.stop();
 */
export function supervisePostgres(input: SupervisePostgresInput): SupervisedPostgres {
  const { recovery, policy } = input;
  let startedAt = Date.now();
  let quickDeaths = 0;
  let restartTimer: NodeJS.Timeout | undefined;
  let state: SupervisedPostgres['state'] = 'running';

  const startAgain = async (): Promise<void> => {
    restartTimer = undefined;
    try {
      const { pid } = await recovery.recover();
      if (state === 'stopped') return;
      startedAt = Date.now();
      state = 'running';
      input.onEvent({ type: 'started', name: POSTGRES_PROCESS_NAME, pid });
    } catch (error) {
      if (state === 'stopped') return;
      // A start that failed counts as one more quick death: the pauses grow.
      quickDeaths += 1;
      const restartInMs = restartDelayMs(policy, quickDeaths);
      input.onStartFailed({
        message: error instanceof Error ? error.message : String(error),
        restartInMs,
      });
      restartTimer = setTimeout(() => void startAgain(), restartInMs);
    }
  };

  recovery.onCrash((crash) => {
    if (state === 'stopped') return;
    state = 'restarting';
    quickDeaths = nextQuickDeaths(policy, quickDeaths, Date.now() - startedAt);
    const restartInMs = restartDelayMs(policy, quickDeaths);
    input.onEvent({ type: 'exited', name: POSTGRES_PROCESS_NAME, ...crash, restartInMs });
    restartTimer = setTimeout(() => void startAgain(), restartInMs);
  });

  return {
    get state() {
      return state;
    },
    stop() {
      state = 'stopped';
      clearTimeout(restartTimer);
      restartTimer = undefined;
    },
  };
}
