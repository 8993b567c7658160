// The files a team deploys with, which no container engine runs here, checked
// against the code: the Kubernetes manifests validated against the API's
// schemas; every process they and the Compose file start is one the image
// runs, on the port its Service and probes name; its environment parses with
// the process's own settings loader, and names nothing that process ignores;
// the Dockerfile runs the assembly step the image test runs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IService } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { imageProcesses } from '../../apps/supervisor/src/image/image-processes.js';
import { IMAGE_TRACING_REGISTER } from '../../apps/supervisor/src/image/assemble-image.js';
import { imageContainers } from './compose-file.js';
import { containerOf, environmentOf, loadManifests, ofKind } from './kubernetes-manifests.js';
import { namesRead } from './process-configs.js';

const root = (relative: string): string =>
  fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const manifests = loadManifests(root('infra/kubernetes'));
const deployments = ofKind<IDeployment>(manifests, 'Deployment');
const IMAGE_PROCESSES = Object.keys(imageProcesses());
/** The service kit's probe routes, as health.routes.ts registers them. */
const HEALTH_ROUTES = readFileSync(root('packages/service-kit/src/http/health.routes.ts'), 'utf8');

describe('the Kubernetes manifests', () => {
  it('are valid against the Kubernetes schemas, one Deployment per process the stack runs', () => {
    // loadManifests validated every document; the set of processes is the image's.
    expect(deployments.map((deployment) => containerOf(deployment).args?.[0]).sort()).toEqual(
      [...IMAGE_PROCESSES].sort(),
    );
  });

  it('give each process an environment its own loader accepts, and set nothing it does not read', () => {
    const configMapKeys = new Set(
      ofKind<IConfigMap>(manifests, 'ConfigMap').flatMap((map) => Object.keys(map.data ?? {})),
    );
    const readBySomeone = new Set<string>();
    for (const deployment of deployments) {
      const container = containerOf(deployment);
      const process = container.args?.[0] ?? '';
      const { env, given } = environmentOf(container, manifests);

      const read = namesRead(process, env);

      expect(
        given.filter((name) => !read.has(name)),
        `${process}: set but not read`,
      ).toEqual([]);
      for (const name of read) readBySomeone.add(name);
    }
    expect([...configMapKeys].filter((name) => !readBySomeone.has(name))).toEqual([]);
  });

  it('serve each process on the port it listens on, probed on routes it has', () => {
    const services = ofKind<IService>(manifests, 'Service');
    for (const deployment of deployments) {
      const container = containerOf(deployment);
      const http = container.ports?.find((port) => port.name === 'http');
      const port = container.env?.find((variable) => variable.name === 'PORT')?.value;
      expect(String(http?.containerPort), deployment.metadata.name).toBe(port);

      const service = services.find(
        (candidate) => candidate.metadata.name === deployment.metadata.name,
      );
      expect(service?.spec?.selector).toEqual(deployment.spec?.selector.matchLabels);
      expect(service?.spec?.ports?.find((candidate) => candidate.name === 'http')).toMatchObject({
        port: http?.containerPort,
        targetPort: 'http',
      });

      const probes = [container.readinessProbe, container.livenessProbe, container.startupProbe];
      for (const probe of probes.filter((candidate) => candidate !== undefined)) {
        expect(probe.httpGet?.port).toBe('http');
        const path = probe.httpGet?.path ?? '';
        if (deployment.metadata.name === 'gateway') expect(path).toBe('/api');
        else expect(HEALTH_ROUTES).toContain(`'${path}'`);
      }
    }
  });

  it('keep one replica of each replicated process through a voluntary disruption', () => {
    const budgets = ofKind<IPodDisruptionBudget>(manifests, 'PodDisruptionBudget');
    for (const deployment of deployments.filter(
      (candidate) => (candidate.spec?.replicas ?? 1) > 1,
    )) {
      const budget = budgets.find(
        (candidate) => candidate.metadata.name === deployment.metadata.name,
      );
      expect(budget?.spec?.selector?.matchLabels, deployment.metadata.name).toEqual(
        deployment.spec?.selector.matchLabels,
      );
      expect(budget?.spec?.minAvailable).toBe(1);
      // Longer than the service's own shutdown bound (15 s), so a drain is never cut short.
      expect(deployment.spec?.template.spec?.terminationGracePeriodSeconds).toBeGreaterThan(15);
    }
  });
});

describe('the Compose file', () => {
  const containers = imageContainers(root('infra/deploy/compose.yaml'), 'effectively-once:local');

  it('runs two replicas of each saga service, and every process the image has', () => {
    const count = (process: string) => containers.filter((c) => c.process === process).length;
    for (const saga of ['order', 'inventory', 'payment', 'notification'])
      expect(count(saga)).toBe(2);
    expect([...new Set(containers.map((container) => container.process))].sort()).toEqual(
      [...IMAGE_PROCESSES].sort(),
    );
  });

  it("gives each container an environment its process's loader accepts, and nothing it ignores", () => {
    for (const container of containers) {
      const read = namesRead(container.process, container.env);

      expect(
        Object.keys(container.env).filter((name) => !read.has(name)),
        container.name,
      ).toEqual([]);
    }
  });

  it("points the gateway at every replica of each service, on the replica's own port", () => {
    const gateway = containers.find((container) => container.process === 'gateway');
    for (const saga of containers.filter(
      (container) => container.env['DATABASE_URL'] !== undefined,
    )) {
      if (saga.process === 'payment-provider') continue;
      const variable = `${saga.process.toUpperCase()}_URL`;
      expect(gateway?.env[variable]?.split(','), variable).toContain(
        `http://${saga.name}:${saga.env['PORT'] ?? ''}`,
      );
    }
  });
});

describe('the Dockerfile', () => {
  const dockerfile = readFileSync(root('infra/container/Dockerfile'), 'utf8');

  it('assembles the image with the step the image test runs, and runs it as a user, not root', () => {
    expect(dockerfile).toContain(
      'RUN node --import tsx apps/supervisor/src/image/assemble-image.main.ts /image',
    );
    expect(dockerfile).toMatch(/^USER node$/m);
  });

  it('starts every process with the tracing register first, as the image test runs it', () => {
    // A deployed service traces when OTEL_EXPORTER_OTLP_ENDPOINT is set only if the
    // register runs before its bundle (docs/observability.md#traces).
    expect(dockerfile).toContain(
      `ENTRYPOINT ["node", "--enable-source-maps", "--import", "/app/${IMAGE_TRACING_REGISTER}", "/app/start.mjs"]`,
    );
  });
});
