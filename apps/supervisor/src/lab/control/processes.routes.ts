// `/lab/processes`: the processes of the stack, taken down for real. A stop
// is an outage with an end (the card processor or the SMTP sink down for a
// minute): the supervisor stops the process and starts it again after the
// duration, with no crash-restart in between. A kill is a crash: SIGKILL, and
// the restart policy brings it back as after any death.
import {
  ProcessKilled,
  ProcessStopRequest,
  SupervisedProcessList,
  SupervisedProcessView,
} from '@effectively-once/fault-injection/outages';
import { ProblemError } from '@effectively-once/service-kit';
import { z } from 'zod';
import type { SupervisedProcess } from '../../supervised-process.js';
import type { LabControlRoutes } from './server.js';

export interface ProcessRoutesInput {
  /** The supervisor's list, read at each request: processes start after the routes exist. */
  readonly processes: readonly SupervisedProcess[];
  /** The supervisor's log. */
  readonly say: (line: string) => void;
}

const ByName = z.object({ name: z.string().min(1).max(100) });

/**
 * @example
 * await openLabControl({ host, port, token, routes: [processRoutes({ processes: running, say })] });
 */
export function processRoutes(input: ProcessRoutesInput): LabControlRoutes {
  /** Pending starts of stopped processes, by name; a new stop replaces the old. */
  const resumes = new Map<string, { timer: NodeJS.Timeout; at: Date }>();

  const find = (name: string): SupervisedProcess => {
    const found = input.processes.find((candidate) => candidate.spec.name === name);
    if (found !== undefined) return found;
    throw new ProblemError({
      status: 404,
      code: 'PROCESS_NOT_FOUND',
      title: 'The stack runs no process of that name',
      detail: `No process "${name}". GET /lab/processes lists them.`,
    });
  };
  const view = (process_: SupervisedProcess): SupervisedProcessView => ({
    name: process_.spec.name,
    pid: process_.pid ?? null,
    state: process_.state,
    resumesAt: resumes.get(process_.spec.name)?.at.toISOString() ?? null,
  });
  const cancelResume = (name: string): void => {
    clearTimeout(resumes.get(name)?.timer);
    resumes.delete(name);
  };

  return {
    topic: 'processes',
    register(app) {
      app.get('/lab/processes', { schema: { response: { 200: SupervisedProcessList } } }, () => ({
        processes: input.processes.map(view),
      }));
      app.post(
        '/lab/processes/:name/stop',
        {
          schema: {
            params: ByName,
            body: ProcessStopRequest,
            response: { 200: SupervisedProcessView },
          },
        },
        async (request) => {
          const process_ = find(request.params.name);
          const { durationMs } = request.body;
          cancelResume(process_.spec.name);
          input.say(`lab: stopping ${process_.spec.name} for ${String(durationMs)} ms`);
          await process_.pause();
          // Another stop may have set its resume while this one waited for the pause:
          // the last to finish governs, and no earlier timer is left that /start cannot cancel.
          cancelResume(process_.spec.name);
          const timer = setTimeout(() => {
            resumes.delete(process_.spec.name);
            input.say(`lab: starting ${process_.spec.name} again`);
            process_.resume();
          }, durationMs);
          // A stack stopping meanwhile must not wait for the outage to end.
          timer.unref();
          resumes.set(process_.spec.name, { timer, at: new Date(Date.now() + durationMs) });
          return view(process_);
        },
      );
      app.post(
        '/lab/processes/:name/start',
        { schema: { params: ByName, response: { 200: SupervisedProcessView } } },
        (request) => {
          const process_ = find(request.params.name);
          cancelResume(process_.spec.name);
          if (process_.state === 'paused') input.say(`lab: starting ${process_.spec.name} again`);
          process_.resume();
          return view(process_);
        },
      );
      app.post(
        '/lab/processes/:name/kill',
        { schema: { params: ByName, response: { 200: ProcessKilled } } },
        (request) => {
          const process_ = find(request.params.name);
          const killedPid = process_.kill('SIGKILL');
          if (killedPid === undefined) {
            throw new ProblemError({
              status: 409,
              code: 'PROCESS_NOT_RUNNING',
              title: 'The process is not running',
              detail: `${process_.spec.name} is ${process_.state}: there is nothing to kill.`,
            });
          }
          input.say(`lab: killed ${process_.spec.name} (pid ${String(killedPid)})`);
          return { name: process_.spec.name, killedPid };
        },
      );
    },
  };
}
