// The supervisor's lab API (lab mode only): faults in the world around the
// processes rather than inside one, such as the fault proxy's links. One
// server per stack, on `ports.labControl`, with the lab token.
import { LinkList, LinkStats, type LinkFault } from '@effectively-once/fault-proxy/schemas';
import { z } from 'zod';
import { labToken, type LabStack } from '../stack/lab-stack.js';
import { callJson } from './http.js';

const LabControlStatus = z.object({ topics: z.array(z.string()) });

export interface LabControlClient {
  /** The supervisor's lab-control URL, e.g. `http://127.0.0.1:3013`. */
  readonly url: string;
  /** The topics this supervisor serves (`links`, ...). */
  topics(): Promise<string[]>;
  /** Every link of the fault proxy with its stats and the faults in force. */
  links(): Promise<LinkStats[]>;
  /** One link's stats; fails for an unknown name. */
  link(name: string): Promise<LinkStats>;
  /** Applies a fault to a link (it clears by itself after `durationMs`). */
  applyFault(link: string, fault: LinkFault): Promise<LinkStats>;
  /** Clears every fault of a link now. */
  clearFaults(link: string): Promise<LinkStats>;
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
 * await control.applyFault('inventory-postgres', { kind: 'reset', durationMs: 2_000 });
 */
export function labControlClient(stack: LabStack): LabControlClient {
  const url = labControlUrl(stack);
  const headers = { authorization: `Bearer ${labToken(stack)}` };
  const faultsUrl = (link: string) => `${url}/lab/links/${encodeURIComponent(link)}/faults`;
  const client: LabControlClient = {
    url,
    topics: async () => (await callJson(LabControlStatus, `${url}/lab`, { headers })).topics,
    links: async () => (await callJson(LinkList, `${url}/lab/links`, { headers })).links,
    link: async (name) => {
      const found = (await client.links()).find((link) => link.name === name);
      if (found === undefined) throw new Error(`The stack has no link named ${name}.`);
      return found;
    },
    applyFault: (link, fault) =>
      callJson(LinkStats, faultsUrl(link), { method: 'POST', headers, json: fault }),
    clearFaults: (link) => callJson(LinkStats, faultsUrl(link), { method: 'DELETE', headers }),
  };
  return client;
}
