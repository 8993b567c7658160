// The gateway's side of the lab: the flow console behind the one public port,
// and the lineage and stuck-order routes, which only the console can answer
// (ADR 0019). All of apps/gateway/src/lab goes with `pnpm lab:remove`; app.ts
// calls this from one marked region.
import type { GatewayInstance, GatewayOptions } from '../app.js';
import { registerConsoleRoutes } from './console.routes.js';
import { registerLineageRoutes } from './lineage.routes.js';

/**
 * Registered in the forwarding scope, beside the services' routes.
 *
 * @example
 * registerLabRoutes(scope, { consoleUrl: 'http://127.0.0.1:3007', upstreamTimeoutMs: 10_000 });
 */
export function registerLabRoutes(
  app: GatewayInstance,
  options: Pick<GatewayOptions, 'consoleUrl' | 'upstreamTimeoutMs'>,
): void {
  registerLineageRoutes(app, options);
  if (options.consoleUrl !== undefined) {
    registerConsoleRoutes(app, {
      consoleUrl: options.consoleUrl,
      upstreamTimeoutMs: options.upstreamTimeoutMs,
    });
  }
}
