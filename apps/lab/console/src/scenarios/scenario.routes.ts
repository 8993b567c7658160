// The scenarios panel's routes: the catalogue, starting a run, a run's view,
// and a run's live stream. The stream sends what the run has so far, then
// `caught-up`, then each message as it happens, ending with `finished`; it
// stays open after that (keep-alives only) so that the browser does not
// reconnect: the page closes it when the run is finished.
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import { z } from 'zod';
import {
  RunStreamMessage,
  RunSummary,
  RunView,
  ScenarioCatalog,
  StartRun,
} from '../api/console.api.js';
import { openSse } from '../live/sse.js';
import type { ScenarioRuns } from './scenario-runs.js';

const RunParams = z.strictObject({ runId: z.string().min(1).max(100) });

function runNotFound(runId: string): ProblemError {
  return new ProblemError({
    status: 404,
    code: 'RUN_NOT_FOUND',
    title: 'No such scenario run',
    detail: `There is no run ${runId}; the console keeps the last runs since it started.`,
  });
}

/** A run as stream messages: its timeline so far, and `finished` when it is. */
export function catchUpMessages(view: RunView): RunStreamMessage[] {
  const timeline = view.timeline.map((item): RunStreamMessage => ({ kind: 'timeline', item }));
  return view.status === 'running' ? timeline : [...timeline, { kind: 'finished', run: view }];
}

/**
 * @example
 * registerScenarioRoutes(app, { runs: createScenarioRuns({ stack, eventStore, log: app.log }), heartbeatMs: 5_000 });
 */
export function registerScenarioRoutes(
  app: FastifyZodInstance,
  deps: { runs: ScenarioRuns; heartbeatMs: number },
): void {
  const { runs } = deps;

  app.get('/api/console/scenarios', { schema: { response: { 200: ScenarioCatalog } } }, () =>
    runs.catalog(),
  );

  app.post(
    '/api/console/scenarios/runs',
    { schema: { body: StartRun, response: { 202: RunSummary } } },
    async (request, reply) => reply.code(202).send(runs.start(request.body.name)),
  );

  app.get(
    '/api/console/scenarios/runs/:runId',
    { schema: { params: RunParams, response: { 200: RunView } } },
    (request) => {
      const view = runs.get(request.params.runId);
      if (view === undefined) throw runNotFound(request.params.runId);
      return view;
    },
  );

  app.get(
    '/api/console/scenarios/runs/:runId/events',
    { schema: { params: RunParams } },
    (request, reply) => {
      const { runId } = request.params;
      const view = runs.get(runId);
      if (view === undefined) throw runNotFound(runId);
      const channel = openSse(request, reply, { heartbeatMs: deps.heartbeatMs });
      // After the hijack a throw would leave the stream open and silent: a
      // message that does not match the API is logged and ends the stream.
      const send = (message: RunStreamMessage): void => {
        const parsed = RunStreamMessage.safeParse(message);
        if (!parsed.success) {
          request.log.error(
            { err: parsed.error, runId, kind: message.kind },
            'a run stream message does not match the console API; closing the stream',
          );
          channel.close();
          return;
        }
        channel.send(parsed.data);
      };
      // The view and the subscription are taken in the same tick: nothing
      // the run does can fall between the catch-up and the live messages.
      for (const message of catchUpMessages(view)) send(message);
      if (channel.closed) return;
      channel.send({}, { event: 'caught-up' });
      const unsubscribe = runs.subscribe(runId, send);
      if (unsubscribe !== undefined) channel.onClose(unsubscribe);
    },
  );
}
