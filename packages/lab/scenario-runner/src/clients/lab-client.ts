// The lab's admin API of every faultable process, called directly on each
// process's port (inventory-2 is not behind the gateway), with the lab token.
import {
  ArmedFault,
  LabStatus,
  type ArmFault,
  type Mistake,
} from '@effectively-once/fault-injection';
import { z } from 'zod';
import {
  LAB_SERVICES,
  labToken,
  serviceUrl,
  type LabService,
  type LabStack,
} from '../stack/lab-stack.js';
import { callJson } from './http.js';

const Released = z.object({ released: z.number().int() });
const Mistakes = z.record(z.string(), z.string());

export interface LabClient {
  arm(service: LabService, fault: ArmFault): Promise<ArmedFault>;
  /** Arms the same fault on both inventory processes: either may receive the message. */
  armInventory(fault: ArmFault): Promise<ArmedFault[]>;
  status(service: LabService): Promise<LabStatus>;
  release(
    service: LabService,
    input: { holdId?: string; then: 'continue' | 'fail' },
  ): Promise<number>;
  disarm(service: LabService): Promise<void>;
  /** Disarms one fault, leaving holds and the other faults as they are. */
  disarmFault(service: LabService, faultId: string): Promise<void>;
  setMistake(service: LabService, consumer: string, mistake: Mistake | null): Promise<void>;
  /** Disarms every fault (releasing the holds they took) and switches every mistake off, everywhere. */
  reset(): Promise<void>;
}

const RESTART_TIMEOUT_MS = 60_000;

async function untilReachable<T>(call: () => Promise<T>, service: string): Promise<T> {
  const deadline = Date.now() + RESTART_TIMEOUT_MS;
  for (;;) {
    try {
      return await call();
    } catch (error) {
      // Only a refused connection means "not back yet"; an HTTP error is an answer.
      if (!(error instanceof TypeError) || Date.now() > deadline) {
        throw new Error(
          `${service} did not answer /admin/lab: ${error instanceof Error ? error.message : String(error)}`,
          { cause: error },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
}

export function labClient(stack: LabStack): LabClient {
  const token = labToken(stack);
  const auth = { authorization: `Bearer ${token}` };
  const url = (service: LabService, path: string) =>
    `${serviceUrl(stack, service)}/admin/lab${path}`;
  const client: LabClient = {
    arm: (service, fault) =>
      callJson(ArmedFault, url(service, '/faults'), { method: 'POST', headers: auth, json: fault }),
    armInventory: (fault) =>
      Promise.all([client.arm('inventory', fault), client.arm('inventory-2', fault)]),
    status: (service) => callJson(LabStatus, url(service, ''), { headers: auth }),
    release: async (service, input) =>
      (
        await callJson(Released, url(service, '/holds/release'), {
          method: 'POST',
          headers: auth,
          json: input,
        })
      ).released,
    disarm: async (service) => {
      const response = await fetch(url(service, '/faults'), { method: 'DELETE', headers: auth });
      if (!response.ok) {
        throw new Error(
          `Disarming ${service} answered ${String(response.status)}: ${await response.text()}`,
        );
      }
    },
    disarmFault: async (service, faultId) => {
      await fetch(url(service, `/faults/${encodeURIComponent(faultId)}`), {
        method: 'DELETE',
        headers: auth,
      });
    },
    setMistake: async (service, consumer, mistake) => {
      await callJson(Mistakes, url(service, `/mistakes/${encodeURIComponent(consumer)}`), {
        method: 'PUT',
        headers: auth,
        json: { mistake },
      });
    },
    reset: async () => {
      for (const service of LAB_SERVICES) {
        // A process a scenario crashed may still be restarting: wait for it.
        const { mistakes } = await untilReachable(() => client.status(service), service);
        await client.disarm(service);
        for (const consumer of Object.keys(mistakes)) {
          await client.setMistake(service, consumer, null);
        }
      }
    },
  };
  return client;
}
