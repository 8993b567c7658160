// Lab mode's one entry point, a service extension (service-kit's
// ServiceExtension): runService attaches it at start and, when
// FAULTS_ENABLED=true, gets the hooks to hand to its consumers, a listener to
// the steps its code reports, and the /admin/lab routes.
import {
  ProblemError,
  type DeliveryHooks,
  type FastifyZodInstance,
  type ServiceExtension,
} from '@effectively-once/service-kit';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { createArmedFaults } from './armed-faults.js';
import { loadFaultsConfig, type FaultsConfig } from './config.js';
import { createHolds } from './holds.js';
import { readJournal } from './journal.repository.js';
import { createLabJournal } from './lab-journal.js';
import { createLabProbe, type Lab, type LabProbe } from './lab-probe.js';
import { registerLabRoutes, type LabControl } from './lab.routes.js';
import { labView } from './lab.tables.js';
import { countLockWaits } from './lock-waits.js';
import { migrateLab } from './migrate-lab.js';
import { openMistakeSwitches } from './mistake-switches.js';

/** What the lab attaches to a service (an AttachedExtension with every part). */
export interface FaultInjection extends LabProbe {
  /** Itself: the probe is the consumers' delivery hooks. */
  hooks: DeliveryHooks;
  /** /admin/lab and below, behind `Authorization: Bearer <FAULTS_TOKEN>`. */
  registerRoutes(app: FastifyZodInstance): void;
  /** Disarms every fault and releases every hold with `continue`, so that closing the consumers does not wait forever. */
  close(): Promise<void>;
}

/** How soon a mistake switched on through one process reaches the others of the service. */
const MISTAKE_REFRESH_MS = 1000;

function controlOf(lab: Lab): LabControl {
  const { db, faults, holds, mistakes } = lab;
  return {
    status: async () => ({
      service: lab.service,
      pid: process.pid,
      faults: faults.list(),
      holds: holds.list(),
      mistakes: mistakes.all(),
      lockWaits: await countLockWaits(db),
    }),
    arm: (request) => faults.arm(request, lab.now()),
    disarmAll: () => ({
      disarmed: faults.disarmAll(),
      released: holds.release(undefined, 'continue'),
    }),
    disarm(faultId) {
      if (!faults.disarm(faultId)) {
        throw new ProblemError({
          status: 404,
          code: 'FAULT_NOT_FOUND',
          title: 'No such fault',
          detail: `Fault ${faultId} is not armed (never was, was used up, or was disarmed).`,
        });
      }
    },
    release({ holdId, then }) {
      const released = holds.release(holdId, then);
      if (holdId !== undefined && released === 0) {
        throw new ProblemError({
          status: 404,
          code: 'HOLD_NOT_FOUND',
          title: 'No such hold',
          detail: `Hold ${holdId} is not holding anything (never was, or was released already).`,
        });
      }
      return released;
    },
    async setMistake(consumer, mistake) {
      await mistakes.set(consumer, mistake, lab.now());
      await lab.journal.write('mistake-set', { consumer }, { mistake });
      return mistakes.all();
    },
    journal: (query) => readJournal(db, query),
  };
}

/**
 * Opens the failure laboratory when its settings enable it (FAULTS_ENABLED=true
 * with a FAULTS_TOKEN, read from the environment unless `config` is given), and
 * returns undefined otherwise, in which case the service runs exactly as in
 * production. Opening migrates the lab tables, loads the mistake switches and
 * journals `process-started`.
 *
 * @example
 * await runService({ ...declaration, extension: openFaultInjection });
 */
export async function openFaultInjection<Database>(input: {
  service: string;
  /** The lab's settings; FAULTS_ENABLED and FAULTS_TOKEN from the environment when absent. */
  config?: FaultsConfig;
  db: Kysely<Database>;
  log: FastifyBaseLogger;
  /** The clock for armedAt, heldSince and set_at (tests may fix it). */
  now?: () => Date;
}): Promise<FaultInjection | undefined> {
  const { service, log } = input;
  const config = input.config ?? loadFaultsConfig();
  if (!config.enabled) return undefined;
  const db = labView(input.db);
  await migrateLab(db);
  const journal = createLabJournal({ db, service, pid: process.pid, log });
  const lab: Lab = {
    service,
    db,
    log,
    now: input.now ?? (() => new Date()),
    journal,
    faults: createArmedFaults(),
    holds: createHolds(),
    mistakes: await openMistakeSwitches({ db, log }),
  };
  await journal.writeOrThrow('process-started', {}, { mistakes: lab.mistakes.all() });
  log.warn(
    { mistakes: lab.mistakes.all() },
    'lab mode is on: /admin/lab can crash, hold and break this process on purpose',
  );
  // Each delivery re-reads the switches before processOnce asks for them; the
  // timer also covers flowFor, which the delivery path asks before that, and
  // an idle process.
  const refresher = setInterval(() => void lab.mistakes.refresh(), MISTAKE_REFRESH_MS);
  refresher.unref();
  const control = controlOf(lab);
  const probe = createLabProbe(lab);
  return {
    ...probe,
    hooks: probe,
    registerRoutes: (app) => registerLabRoutes(app, { token: config.token, lab: control }),
    close: () => {
      clearInterval(refresher);
      // Disarmed first: a consumer still draining must not meet a new hold
      // that nothing would ever release.
      lab.faults.disarmAll();
      lab.holds.release(undefined, 'continue');
      return Promise.resolve();
    },
  };
}

// Checked here rather than by `extends`: a method and a function property do not unify.
openFaultInjection satisfies ServiceExtension;
