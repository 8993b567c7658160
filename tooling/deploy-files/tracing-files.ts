// infra/tracing as objects: the Compose file of the collector and Jaeger, and
// the collector's configuration, parsed with the shapes this project uses of
// them (zod drops the rest).
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { z } from 'zod';

const TracingService = z.object({
  image: z.string(),
  command: z.array(z.string()).default([]),
  volumes: z.array(z.string()).default([]),
  ports: z.array(z.string()).default([]),
  depends_on: z.array(z.string()).default([]),
});
export const TracingCompose = z.object({ services: z.record(z.string(), TracingService) });
export type TracingCompose = z.infer<typeof TracingCompose>;

/** A component's settings: any map (the collector checks them; only the names matter here). */
const Components = z.record(z.string(), z.record(z.string(), z.unknown()).nullable()).default({});
const Pipeline = z.object({
  receivers: z.array(z.string()),
  processors: z.array(z.string()).default([]),
  exporters: z.array(z.string()),
});
export const CollectorConfig = z.object({
  receivers: Components,
  processors: Components,
  exporters: Components,
  extensions: Components,
  service: z.object({
    extensions: z.array(z.string()).default([]),
    pipelines: z.record(z.string(), Pipeline),
  }),
});
export type CollectorConfig = z.infer<typeof CollectorConfig>;

/**
 * @example
 * readYaml('infra/tracing/compose.yaml', TracingCompose).services['jaeger']?.image;
 */
export function readYaml<Schema extends z.ZodType>(file: string, schema: Schema): z.output<Schema> {
  return schema.parse(parse(readFileSync(file, 'utf8')));
}

/** A component id's type: `otlp/jaeger` is an `otlp` exporter named `jaeger`. */
export const componentType = (id: string): string => id.split('/')[0] ?? id;

/** `host:port` or `host:port/path` -> its host and port. */
export function hostAndPort(endpoint: string): { host: string; port: number } {
  const match = /^\[?([^\]]*?)\]?:(\d+)(\/.*)?$/.exec(endpoint.replace(/^[a-z]+:\/\//, ''));
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new Error(`not host:port: ${endpoint}`);
  }
  return { host: match[1], port: Number(match[2]) };
}

/** `127.0.0.1:4318:4318` -> where it is published and the container's port. */
export function publishedPort(mapping: string): { hostIp: string; hostPort: number; port: number } {
  const [hostIp = '', hostPort = '', port = ''] = mapping.split(':');
  return { hostIp, hostPort: Number(hostPort), port: Number(port) };
}
