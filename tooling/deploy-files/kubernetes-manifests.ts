// infra/kubernetes/*.yaml as objects: every document validated against the
// Kubernetes API's own schemas (kubernetes-models, offline), and each
// container's environment resolved the way the cluster would resolve it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap, type IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Secret, type ISecret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';
import { parseAllDocuments } from 'yaml';

/** The kinds the manifests may hold, each with the model that validates it. */
const MODELS: Readonly<Record<string, new (data: never) => { validate(): void }>> = {
  'apps/v1/Deployment': Deployment,
  'v1/Service': Service,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
};

interface ManifestHead {
  readonly apiVersion: string;
  readonly kind: string;
  readonly metadata: { readonly name: string; readonly labels?: Record<string, string> };
}

/** A document, with the file it came from. */
export type Manifest = ManifestHead & { readonly file: string };

/** Every document of every file in `directory`, validated; throws naming the file and the problem. */
export function loadManifests(directory: string): Manifest[] {
  return readdirSync(directory)
    .filter((file) => file.endsWith('.yaml'))
    .flatMap((file) =>
      parseAllDocuments(readFileSync(path.join(directory, file), 'utf8')).map((document) => {
        if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0]?.message}`);
        const data = document.toJS() as ManifestHead;
        const Model = MODELS[`${data.apiVersion}/${data.kind}`];
        if (Model === undefined) {
          throw new Error(
            `${file}: ${data.apiVersion} ${data.kind} is not a kind the manifests may hold.`,
          );
        }
        try {
          new Model(data as never).validate();
        } catch (error) {
          throw new Error(`${file}: ${data.kind} ${data.metadata.name}: ${String(error)}`, {
            cause: error,
          });
        }
        const manifest: Manifest = { ...data, file };
        return manifest;
      }),
    );
}

export function ofKind<T>(manifests: readonly Manifest[], kind: string): (Manifest & T)[] {
  return manifests.filter((manifest) => manifest.kind === kind) as (Manifest & T)[];
}

type Container = NonNullable<IDeployment['spec']>['template']['spec'] extends infer Spec
  ? Spec extends { containers: (infer C)[] }
    ? C
    : never
  : never;

/** The one container of a Deployment (each runs one process). */
export function containerOf(deployment: Manifest & IDeployment): Container {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1 || containers[0] === undefined) {
    throw new Error(
      `${deployment.file}: Deployment ${deployment.metadata.name} must have one container.`,
    );
  }
  return containers[0];
}

/**
 * A container's environment as the cluster builds it: the ConfigMaps of
 * `envFrom`, then `env`, its secret references read from the Secrets. `given`
 * names the variables set for this container alone (not from a shared ConfigMap).
 */
export function environmentOf(
  container: Container,
  manifests: readonly Manifest[],
): { env: Record<string, string>; given: string[] } {
  const configMaps = ofKind<IConfigMap>(manifests, 'ConfigMap');
  const secrets = ofKind<ISecret>(manifests, 'Secret');
  const env: Record<string, string> = {};
  for (const source of container.envFrom ?? []) {
    const name = source.configMapRef?.name;
    const configMap = configMaps.find((candidate) => candidate.metadata.name === name);
    if (configMap === undefined) throw new Error(`No ConfigMap named ${String(name)}.`);
    Object.assign(env, configMap.data);
  }
  const given: string[] = [];
  for (const variable of container.env ?? []) {
    given.push(variable.name);
    const reference = variable.valueFrom?.secretKeyRef;
    if (reference === undefined) {
      env[variable.name] = variable.value ?? '';
      continue;
    }
    const secret = secrets.find((candidate) => candidate.metadata.name === reference.name);
    const value = secret?.stringData?.[reference.key];
    if (value === undefined) {
      throw new Error(
        `${variable.name}: the Secret ${reference.name} has no key ${reference.key}.`,
      );
    }
    env[variable.name] = value;
  }
  return { env, given };
}
