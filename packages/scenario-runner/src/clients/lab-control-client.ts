// The supervisor's lab API (lab mode only): faults in the world around the
// processes rather than inside one, such as the fault proxy's links. One
// server per stack, on `ports.labControl`, with the lab token.
import { z } from 'zod';
import { labToken, type LabStack } from '../stack/lab-stack.js';
import { callJson } from './http.js';

const LabControlStatus = z.object({ topics: z.array(z.string()) });

export interface LabControlClient {
  /** The supervisor's lab-control URL, e.g. `http://127.0.0.1:3013`. */
  readonly url: string;
  /** The topics this supervisor serves (`links`, ...). */
  topics(): Promise<string[]>;
}

/** Where the stack's lab-control server listens, or a clear refusal without one. */
export function labControlUrl(stack: LabStack): string {
  labToken(stack);
  const port = stack.ports.labControl;
  if (port === undefined) {
    throw new Error(
      'This stack has no lab-control server (ports.labControl): its supervisor predates it; restart it with STACK_FAULTS=true.',
    );
  }
  const gateway = new URL(stack.gatewayUrl);
  return `${gateway.protocol}//${gateway.hostname}:${String(port)}`;
}

/**
 * @example
 * const control = labControlClient(stack);
 * await control.topics(); // ['links']
 */
export function labControlClient(stack: LabStack): LabControlClient {
  const url = labControlUrl(stack);
  const headers = { authorization: `Bearer ${labToken(stack)}` };
  return {
    url,
    topics: async () => (await callJson(LabControlStatus, `${url}/lab`, { headers })).topics,
  };
}
