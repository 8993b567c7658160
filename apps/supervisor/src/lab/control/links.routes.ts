// /lab/links: the fault proxy's links between the processes and what they
// talk to. List them with their stats, apply a fault to one, clear one.
import type { FaultProxy } from '@effectively-once/fault-proxy';
import { LinkFault, LinkList, LinkStats } from '@effectively-once/fault-proxy/schemas';
import { ProblemError } from '@effectively-once/service-kit';
import { z } from 'zod';
import type { LabControlRoutes } from './server.js';

const LinkParams = z.object({ link: z.string().min(1).max(100) });

function knownLink(proxy: FaultProxy, name: string): string {
  if (!proxy.has(name)) {
    throw new ProblemError({
      status: 404,
      code: 'LINK_NOT_FOUND',
      title: 'No such link',
      detail: `No link is named ${name}; GET /lab/links lists them.`,
    });
  }
  return name;
}

/**
 * @example
 * openLabControl({ host, port, token, routes: [linkRoutes(proxy)] });
 */
export function linkRoutes(proxy: FaultProxy): LabControlRoutes {
  return {
    topic: 'links',
    register(app) {
      app.get('/lab/links', { schema: { response: { 200: LinkList } } }, () => ({
        links: proxy.links(),
      }));
      app.post(
        '/lab/links/:link/faults',
        { schema: { params: LinkParams, body: LinkFault, response: { 200: LinkStats } } },
        (request) => proxy.apply(knownLink(proxy, request.params.link), request.body),
      );
      app.delete(
        '/lab/links/:link/faults',
        { schema: { params: LinkParams, response: { 200: LinkStats } } },
        (request) => proxy.clear(knownLink(proxy, request.params.link)),
      );
    },
  };
}
