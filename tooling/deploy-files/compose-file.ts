// infra/deploy/compose.yaml as objects: the services that run the image, each
// with the process it runs and its environment, anchors and merges resolved.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const ComposeService = z.object({
  image: z.string().optional(),
  command: z.array(z.string()).optional(),
  environment: z
    .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
    .optional()
    .transform((env) =>
      Object.fromEntries(Object.entries(env ?? {}).map(([name, value]) => [name, String(value)])),
    ),
});
const ComposeFile = z.object({ services: z.record(z.string(), ComposeService) });

export interface ImageContainer {
  /** The Compose service, e.g. `payment-2`. */
  readonly name: string;
  /** The process the image runs for it, e.g. `payment`. */
  readonly process: string;
  readonly env: Readonly<Record<string, string>>;
}

/**
 * The services of the Compose file that run `image`.
 *
 * @example
 * imageContainers('infra/deploy/compose.yaml', 'effectively-once:local'); // [{ name: 'order-1', process: 'order', env: {…} }, …]
 */
export function imageContainers(file: string, image: string): ImageContainer[] {
  const compose = ComposeFile.parse(parse(readFileSync(file, 'utf8'), { merge: true }));
  return Object.entries(compose.services)
    .filter(([, service]) => service.image === image)
    .map(([name, service]) => ({
      name,
      process: service.command?.[0] ?? '',
      env: service.environment,
    }));
}
