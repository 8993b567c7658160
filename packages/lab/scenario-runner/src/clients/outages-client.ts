// The supervisor's lab-control topics for real outages: PostgreSQL restarted
// in immediate mode, a process of the stack stopped for a while or killed.
// An answer other than 2xx fails with its problem document (a stack on
// DATABASE_URL answers 409 POSTGRES_NOT_EMBEDDED to a restart).
import {
  PostgresRestarted,
  PostgresStatus,
  ProcessKilled,
  SupervisedProcessList,
  SupervisedProcessView,
} from '@effectively-once/fault-injection/outages';
import { labToken, type LabStack } from '../stack/lab-stack.js';
import { callJson } from './http.js';
import { labControlUrl } from './lab-control-client.js';

export interface OutagesClient {
  postgres(): Promise<PostgresStatus>;
  /** Resolves once the server accepts connections again. */
  restartPostgres(input: { downMs: number }): Promise<PostgresRestarted>;
  processes(): Promise<SupervisedProcessView[]>;
  /** Stops the process now; the supervisor starts it again after `durationMs`. */
  stopProcess(name: string, durationMs: number): Promise<SupervisedProcessView>;
  /** Ends a stop early. */
  startProcess(name: string): Promise<SupervisedProcessView>;
  /** SIGKILL; the supervisor restarts it as after any crash. */
  killProcess(name: string): Promise<ProcessKilled>;
}

/**
 * @example
 * const outages = outagesClient(stack);
 * await outages.stopProcess('payment-provider', 60_000);
 */
export function outagesClient(stack: LabStack): OutagesClient {
  const url = labControlUrl(stack);
  const headers = { authorization: `Bearer ${labToken(stack)}` };
  const process = (name: string, action: string) =>
    `${url}/lab/processes/${encodeURIComponent(name)}/${action}`;
  return {
    postgres: () => callJson(PostgresStatus, `${url}/lab/postgres`, { headers }),
    restartPostgres: (input) =>
      callJson(PostgresRestarted, `${url}/lab/postgres/restart`, {
        method: 'POST',
        headers,
        json: input,
      }),
    processes: async () =>
      (await callJson(SupervisedProcessList, `${url}/lab/processes`, { headers })).processes,
    stopProcess: (name, durationMs) =>
      callJson(SupervisedProcessView, process(name, 'stop'), {
        method: 'POST',
        headers,
        json: { durationMs },
      }),
    startProcess: (name) =>
      callJson(SupervisedProcessView, process(name, 'start'), { method: 'POST', headers }),
    killProcess: (name) =>
      callJson(ProcessKilled, process(name, 'kill'), { method: 'POST', headers }),
  };
}
