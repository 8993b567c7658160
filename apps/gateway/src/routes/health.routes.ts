// GET /api/health: every service's readiness in one answer (200 when all are
// ready, 503 otherwise, same body). GET /api/health/:service: that service's
// own /health, forwarded.
import { HealthReport, ServiceNameParams } from '@effectively-once/contracts';
import type { GatewayInstance, GatewayOptions } from '../app.js';
import { replicaRotation } from '../replica-rotation.js';
import { forward } from '../forward.js';
import { checkReadiness } from '../readiness.js';

export function registerHealthRoutes(app: GatewayInstance, options: GatewayOptions): void {
  const replicas = replicaRotation(options.upstreams);
  app.get(
    '/api/health',
    { schema: { response: { 200: HealthReport, 503: HealthReport } } },
    async (_request, reply) => {
      const report = await checkReadiness({
        upstreams: options.upstreams,
        timeoutMs: options.healthTimeoutMs,
      });
      return reply.code(report.status === 'ready' ? 200 : 503).send(report);
    },
  );

  app.get('/api/health/:service', { schema: { params: ServiceNameParams } }, (request, reply) =>
    forward(request, reply, {
      service: request.params.service,
      ...replicas.next(request.params.service, '/health'),
      timeoutMs: options.healthTimeoutMs,
    }),
  );
}
