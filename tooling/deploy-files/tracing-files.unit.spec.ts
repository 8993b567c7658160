// infra/tracing, which no container engine runs here, checked as far as files
// can be: the Compose file parses, pins its images, publishes only on
// loopback and mounts the collector configuration that exists, where the
// collector is told to read it; the configuration's pipeline uses only
// components it defines and defines none it does not use; OTLP comes in over
// HTTP and gRPC on the ports Compose publishes, and goes out to the Jaeger
// service on its OTLP gRPC port; the endpoint the docs give the stack is the
// collector's HTTP port.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  CollectorConfig,
  componentType,
  hostAndPort,
  publishedPort,
  readYaml,
  TracingCompose,
} from './tracing-files.js';

const root = (relative: string): string =>
  fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const COMPOSE_FILE = root('infra/tracing/compose.yaml');
const compose = readYaml(COMPOSE_FILE, TracingCompose);

function service(name: string) {
  const found = compose.services[name];
  if (found === undefined) throw new Error(`infra/tracing/compose.yaml has no service ${name}`);
  return found;
}
const collector = service('otel-collector');
const jaeger = service('jaeger');

/** The collector configuration the collector service mounts, and where it reads it. */
function mountedConfig(): { file: string; target: string } {
  const [source = '', target = ''] = collector.volumes[0]?.split(':') ?? [];
  return { file: path.resolve(path.dirname(COMPOSE_FILE), source), target };
}
const config = readYaml(mountedConfig().file, CollectorConfig);

/** Jaeger all-in-one's ports: OTLP over gRPC, and the UI. */
const JAEGER_OTLP_GRPC = 4317;
const JAEGER_UI = 16686;

describe('infra/tracing/compose.yaml', () => {
  it('runs the collector and Jaeger from pinned images, published on loopback only', () => {
    expect(Object.keys(compose.services).sort()).toEqual(['jaeger', 'otel-collector']);
    for (const [name, { image, ports }] of Object.entries(compose.services)) {
      expect(image, name).toMatch(/:\d+\.\d+\.\d+$/);
      for (const mapping of ports) expect(publishedPort(mapping).hostIp, name).toBe('127.0.0.1');
    }
    expect(jaeger.ports.map((mapping) => publishedPort(mapping).port)).toEqual([JAEGER_UI]);
    expect(collector.depends_on).toEqual(['jaeger']);
  });

  it('mounts the collector configuration that exists in the repository, where --config points', () => {
    const { file, target } = mountedConfig();

    expect(existsSync(file)).toBe(true);
    expect(collector.command).toContain(`--config=${target}`);
  });
});

describe('infra/tracing/otel-collector.yaml', () => {
  it('uses in its pipelines only the components it defines, and defines none it does not use', () => {
    const used = {
      receivers: new Set<string>(),
      processors: new Set<string>(),
      exporters: new Set<string>(),
    };
    for (const pipeline of Object.values(config.service.pipelines)) {
      for (const kind of ['receivers', 'processors', 'exporters'] as const) {
        for (const id of pipeline[kind]) {
          expect(Object.keys(config[kind]), `${kind}: ${id}`).toContain(id);
          used[kind].add(id);
        }
      }
    }
    for (const kind of ['receivers', 'processors', 'exporters'] as const) {
      expect(Object.keys(config[kind]).sort(), `${kind} defined but unused`).toEqual(
        [...used[kind]].sort(),
      );
    }
    expect(config.service.extensions.sort()).toEqual(Object.keys(config.extensions).sort());
  });

  it('takes OTLP over gRPC and HTTP on the ports Compose publishes, and sends traces to Jaeger over OTLP', () => {
    // Given the traces pipeline
    const traces = config.service.pipelines['traces'];
    expect(traces?.receivers.map(componentType)).toEqual(['otlp']);

    // Then its OTLP receiver listens on every interface, on the ports published for it
    const protocols = config.receivers[traces?.receivers[0] ?? '']?.['protocols'] as Record<
      string,
      { endpoint: string }
    >;
    const listening = Object.entries(protocols).map(([protocol, { endpoint }]) => ({
      protocol,
      ...hostAndPort(endpoint),
    }));
    expect(listening).toEqual([
      { protocol: 'grpc', host: '0.0.0.0', port: 4317 },
      { protocol: 'http', host: '0.0.0.0', port: 4318 },
    ]);
    expect(collector.ports.map((mapping) => publishedPort(mapping).port).sort()).toEqual([
      4317, 4318,
    ]);
    // And it exports over OTLP to the Jaeger service's OTLP gRPC port
    expect(traces?.exporters.map(componentType)).toEqual(['otlp']);
    const exporter = config.exporters[traces?.exporters[0] ?? ''] as { endpoint: string };
    expect(hostAndPort(exporter.endpoint)).toEqual({ host: 'jaeger', port: JAEGER_OTLP_GRPC });
    expect(Object.keys(compose.services)).toContain('jaeger');
    // memory_limiter must come first to protect the rest, as the collector's documentation says
    expect(traces?.processors[0]).toBe('memory_limiter');
  });

  it('is the endpoint the docs give the stack: the collector’s HTTP port on loopback', () => {
    const readme = readFileSync(root('infra/tracing/README.md'), 'utf8');
    const given = /OTEL_EXPORTER_OTLP_ENDPOINT=(\S+)/.exec(readme)?.[1] ?? '';
    const published = collector.ports.map(publishedPort).find(({ port }) => port === 4318);

    expect(given).toBe(`http://${published?.hostIp ?? ''}:${String(published?.hostPort)}`);
  });
});
