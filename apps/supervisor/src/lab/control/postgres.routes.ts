// `/lab/postgres`: the database server itself goes away. Only a server this
// supervisor started (embedded) can be restarted: one from DATABASE_URL may
// be shared with other stacks or hold data that is not the lab's, so the
// request is refused with a problem document that says why.
import {
  PostgresRestarted,
  PostgresRestartRequest,
  PostgresStatus,
} from '@effectively-once/fault-injection/outages';
import type { PostgresServer } from '@effectively-once/postgres';
import { ProblemError } from '@effectively-once/service-kit';
import type { SupervisedPostgres } from '../../supervised-postgres.js';
import type { LabControlRoutes } from './server.js';

export interface PostgresRoutesInput {
  readonly postgres: PostgresServer;
  /** The supervisor's crash restarts of the embedded server: one under way counts as restarting. */
  readonly supervised?: Pick<SupervisedPostgres, 'state'>;
  /** The supervisor's log. */
  readonly say: (line: string) => void;
}

/**
 * @example
 * await openLabControl({ host, port, token, routes: [postgresRoutes({ postgres, say })] });
 */
export function postgresRoutes(input: PostgresRoutesInput): LabControlRoutes {
  const { postgres } = input;
  let restarting = false;
  const busy = (): boolean => restarting || input.supervised?.state === 'restarting';
  return {
    topic: 'postgres',
    register(app) {
      app.get('/lab/postgres', { schema: { response: { 200: PostgresStatus } } }, () => ({
        kind: postgres.kind,
        state: busy() ? ('restarting' as const) : ('running' as const),
      }));
      app.post(
        '/lab/postgres/restart',
        { schema: { body: PostgresRestartRequest, response: { 200: PostgresRestarted } } },
        async (request) => {
          const restart = postgres.restart;
          if (restart === undefined) {
            throw new ProblemError({
              status: 409,
              code: 'POSTGRES_NOT_EMBEDDED',
              title: 'The stack runs on a PostgreSQL server it did not start',
              detail:
                'The stack uses DATABASE_URL; the lab restarts only the embedded server the supervisor started. Unset DATABASE_URL (STACK_FAULTS=true pnpm start) to run postgres-restart.',
            });
          }
          if (busy()) {
            throw new ProblemError({
              status: 409,
              code: 'POSTGRES_RESTARTING',
              title: 'A restart of PostgreSQL is already under way',
            });
          }
          const { downMs } = request.body;
          restarting = true;
          input.say(`lab: stopping PostgreSQL (immediate) for ${String(downMs)} ms`);
          try {
            const times = await restart({ downMs });
            input.say('lab: PostgreSQL accepts connections again');
            return { mode: 'immediate' as const, downMs, ...times };
          } finally {
            restarting = false;
          }
        },
      );
    },
  };
}
