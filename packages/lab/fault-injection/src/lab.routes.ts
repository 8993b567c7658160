// /admin/lab: the laboratory's control panel over HTTP. Every route needs the
// FAULTS_TOKEN; the routes exist only when the service runs in lab mode.
import type { FastifyZodInstance } from '@effectively-once/service-kit';
import type { Mistake } from './mistakes.js';
import { z } from 'zod';
import {
  ArmedFault,
  ArmFault,
  Disarmed,
  JournalPage,
  JournalQuery,
  LabStatus,
  MistakeMap,
  MistakeSwitch,
  Released,
  ReleaseHolds,
  type JournalEntry,
} from './lab.schemas.js';
import { requireLabToken } from './lab-token.js';

/** What the routes ask of the laboratory; each route is one call. */
const FaultIdParams = z.object({ faultId: z.string().min(1) });

export interface LabControl {
  status(): Promise<LabStatus>;
  arm(request: ArmFault): ArmedFault;
  disarmAll(): z.infer<typeof Disarmed>;
  /** Disarms one fault and leaves holds alone; a 404 problem for an unknown id. */
  disarm(faultId: string): void;
  /** A 404 problem when a named hold is not (or no longer) held. */
  release(request: ReleaseHolds): number;
  setMistake(consumer: string, mistake: Mistake | null): Promise<MistakeMap>;
  journal(query: JournalQuery): Promise<JournalEntry[]>;
}

const ConsumerParams = z.object({ consumer: z.string().min(1).max(200) });

export function registerLabRoutes(
  app: FastifyZodInstance,
  input: { token: string; lab: LabControl },
): void {
  const { lab } = input;
  const onRequest = requireLabToken(input.token);
  app.get('/admin/lab', { onRequest, schema: { response: { 200: LabStatus } } }, () =>
    lab.status(),
  );
  app.post(
    '/admin/lab/faults',
    { onRequest, schema: { body: ArmFault, response: { 201: ArmedFault } } },
    async (request, reply) => reply.code(201).send(lab.arm(request.body)),
  );
  app.delete('/admin/lab/faults', { onRequest, schema: { response: { 200: Disarmed } } }, () =>
    Promise.resolve(lab.disarmAll()),
  );
  app.delete(
    '/admin/lab/faults/:faultId',
    { onRequest, schema: { params: FaultIdParams } },
    async (request, reply) => {
      lab.disarm(request.params.faultId);
      return reply.status(204).send();
    },
  );
  app.post(
    '/admin/lab/holds/release',
    { onRequest, schema: { body: ReleaseHolds, response: { 200: Released } } },
    (request) => Promise.resolve({ released: lab.release(request.body) }),
  );
  app.put(
    '/admin/lab/mistakes/:consumer',
    {
      onRequest,
      schema: { params: ConsumerParams, body: MistakeSwitch, response: { 200: MistakeMap } },
    },
    (request) => lab.setMistake(request.params.consumer, request.body.mistake),
  );
  app.get(
    '/admin/lab/journal',
    { onRequest, schema: { querystring: JournalQuery, response: { 200: JournalPage } } },
    async (request) => ({ entries: await lab.journal(request.query) }),
  );
}
