// The gateway's side of the lab, attached through its extension point
// (GatewayExtension in app.ts): the flow console behind the one public port,
// and the lineage and stuck-order routes, which only the console can answer
// (ADR 0019). server.ts names it once; all of apps/gateway/src/lab goes with
// `pnpm lab:remove`.
import type { GatewayExtension } from '../app.js';
import { loadLabGatewaySettings, type LabGatewaySettings } from './config.js';
import { registerConsoleRoutes } from './console.routes.js';
import { registerLineageRoutes } from './lineage.routes.js';

/**
 * The lab's routes in the forwarding scope, beside the services'; with the
 * console, `/` is the console's page and the JSON index is at /api only.
 *
 * @example
 * const app = buildApp({ ...options, extension: labGateway({ consoleUrl: 'http://127.0.0.1:3007' }) });
 */
export function labGateway(
  settings: LabGatewaySettings = loadLabGatewaySettings(),
): GatewayExtension {
  const { consoleUrl } = settings;
  return {
    registerRoutes: (scope, { upstreamTimeoutMs }) => {
      registerLineageRoutes(scope, { consoleUrl, upstreamTimeoutMs });
      if (consoleUrl !== undefined) {
        registerConsoleRoutes(scope, { consoleUrl, upstreamTimeoutMs });
      }
    },
    ...(consoleUrl === undefined ? {} : { indexPaths: ['/api'] }),
  };
}
