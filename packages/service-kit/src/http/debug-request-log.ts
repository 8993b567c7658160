// Fastify's per-request lines ("incoming request", "request completed") at
// debug instead of info, for a server that sees every request of every
// service (the gateway), whose log at info cost more CPU than the forwarding.
// Failures stay visible at info and above: "request errored" (Fastify),
// the gateway's "upstream failed" and "request failed" for a 5xx (problem.ts).
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/**
 * @example
 * Fastify({ logger: true, logController: new DebugRequestLog({ requestIdLogLabel: 'requestId' }) });
 */
export class DebugRequestLog extends LogController {
  override incomingRequest(request: FastifyRequest): void {
    if (this.isLogDisabled(request)) return;
    request.log.debug({ req: request }, 'incoming request');
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error !== null && error !== undefined) {
      super.requestCompleted(error, request, reply);
      return;
    }
    if (this.isLogDisabled(request)) return;
    reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  }
}
