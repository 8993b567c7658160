// What the supervisor's lab-control server takes and answers for the real
// outages: PostgreSQL restarted in immediate mode, a process of the stack
// stopped for a while or killed. A contract between the supervisor and the
// tools that drive it (scenario runner, soak, console): part of the lab, so it
// lives with the lab's faults and goes with them; zod only (the ./outages export).
import { z } from 'zod';

/** POST /lab/postgres/restart: how long the server stays down; 5 s unless given. */
export const PostgresRestartRequest = z.strictObject({
  downMs: z.number().int().min(0).max(300_000).default(5_000),
});
export type PostgresRestartRequest = z.input<typeof PostgresRestartRequest>;

/** Its answer, once the server accepts connections again. */
export const PostgresRestarted = z.object({
  mode: z.literal('immediate'),
  downMs: z.number().int(),
  stoppedAt: z.iso.datetime(),
  startedAt: z.iso.datetime(),
});
export type PostgresRestarted = z.infer<typeof PostgresRestarted>;

/** GET /lab/postgres. */
export const PostgresStatus = z.object({
  kind: z.enum(['embedded', 'external']),
  state: z.enum(['running', 'restarting']),
});
export type PostgresStatus = z.infer<typeof PostgresStatus>;

export const SupervisedProcessState = z.enum(['running', 'restarting', 'paused', 'stopped']);

/** One process the supervisor runs, as GET /lab/processes lists it. */
export const SupervisedProcessView = z.object({
  name: z.string(),
  pid: z.number().int().nullable(),
  state: SupervisedProcessState,
  /** Set while paused by POST /lab/processes/:name/stop: when it starts again by itself. */
  resumesAt: z.iso.datetime().nullable(),
});
export type SupervisedProcessView = z.infer<typeof SupervisedProcessView>;

export const SupervisedProcessList = z.object({ processes: z.array(SupervisedProcessView) });
export type SupervisedProcessList = z.infer<typeof SupervisedProcessList>;

/** POST /lab/processes/:name/stop: the process stays down this long, then starts again. */
export const ProcessStopRequest = z.strictObject({
  durationMs: z.number().int().min(1).max(600_000),
});
export type ProcessStopRequest = z.infer<typeof ProcessStopRequest>;

/** POST /lab/processes/:name/kill: SIGKILL, and the supervisor restarts it as after any crash. */
export const ProcessKilled = z.object({ name: z.string(), killedPid: z.number().int() });
export type ProcessKilled = z.infer<typeof ProcessKilled>;
