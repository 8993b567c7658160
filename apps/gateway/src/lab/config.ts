// The gateway's setting that belongs to the lab: where the flow console runs.
// Read by the lab when server.ts attaches it (lab-gateway.ts); without the lab
// (`pnpm lab:remove`) the gateway has no console and this variable means nothing.
import { z } from 'zod';
import { BaseUrl } from '../config.js';

const LabGatewayEnv = z.object({
  /** The flow console (apps/lab/console): when set, the gateway serves it at `/`. */
  CONSOLE_URL: BaseUrl.optional(),
});

export interface LabGatewaySettings {
  /** Where `/`, `/assets/*` and `/api/console/*` go; undefined: `/` is the JSON index. */
  readonly consoleUrl: string | undefined;
}

/**
 * @example
 * loadLabGatewaySettings({ CONSOLE_URL: 'http://127.0.0.1:3007/' }); // { consoleUrl: 'http://127.0.0.1:3007' }
 */
export function loadLabGatewaySettings(env: NodeJS.ProcessEnv = process.env): LabGatewaySettings {
  const parsed = LabGatewayEnv.safeParse({ CONSOLE_URL: env['CONSOLE_URL'] || undefined });
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${issue.path.join('.')}: ${issue.message}`,
    );
    throw new Error(`Invalid gateway configuration: ${problems.join('; ')}`);
  }
  return { consoleUrl: parsed.data.CONSOLE_URL };
}
