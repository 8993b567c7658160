// The gateway's settings, from the environment: the only reader of process.env.
import type { ServiceName } from '@effectively-once/contracts';
import { z } from 'zod';

const Port = z.coerce.number().int().min(0).max(65_535);
/** An http(s) base URL; a trailing slash is dropped so paths can be appended. */
/** An http(s) URL without its trailing slash. */
export const BaseUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((url) => url.replace(/\/+$/, ''));
const Milliseconds = z.coerce.number().int().positive().max(600_000);

/** A service's replicas: one URL, or several separated by commas; the pool spreads requests over them. */
export type Replicas = readonly [string, ...string[]];

/**
 * The URLs of a service's replicas. They may differ in host and port, not in
 * path: the pool picks an origin, and the path is the first replica's.
 */
const ReplicaUrls = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((value) => value.split(',').map((url) => url.trim()))
    .pipe(z.tuple([BaseUrl], BaseUrl))
    .refine(
      (urls) =>
        new Set(urls.map((url) => (URL.canParse(url) ? new URL(url).pathname : url))).size === 1,
      'every replica must have the same path; only the host and port may differ',
    );

const GatewayEnv = z.object({
  PORT: Port.default(3000),
  HOST: z.string().min(1).default('127.0.0.1'),
  ORDER_URL: ReplicaUrls('http://127.0.0.1:3001'),
  INVENTORY_URL: ReplicaUrls('http://127.0.0.1:3002'),
  PAYMENT_URL: ReplicaUrls('http://127.0.0.1:3003'),
  NOTIFICATION_URL: ReplicaUrls('http://127.0.0.1:3004'),
  PAYMENT_PROVIDER_URL: ReplicaUrls('http://127.0.0.1:3005'),
  MAIL_SINK_URL: ReplicaUrls('http://127.0.0.1:3006'),
  /** How long a forwarded request may wait for the service's answer before 504. */
  UPSTREAM_TIMEOUT_MS: Milliseconds.default(10_000),
  /** How long /api/health waits for each service's /ready. */
  HEALTH_TIMEOUT_MS: Milliseconds.default(1_000),
  /** How long a client's request (headers and body) may take to arrive before 408. */
  REQUEST_TIMEOUT_MS: Milliseconds.default(10_000),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Upstreams = Readonly<Record<ServiceName, Replicas>>;

export interface GatewayConfig {
  host: string;
  port: number;
  upstreams: Upstreams;
  upstreamTimeoutMs: number;
  healthTimeoutMs: number;
  requestTimeoutMs: number;
  logLevel: string;
}

/** The variable an issue is about, and which replica of its list when it holds several. */
function where(path: readonly PropertyKey[], env: NodeJS.ProcessEnv): string {
  const [name, index] = path;
  const variable = String(name);
  const isList = env[variable]?.includes(',') === true;
  return typeof index === 'number' && isList
    ? `${variable} (replica ${String(index + 1)})`
    : variable;
}

/**
 * Parses the environment; a bad value throws one error naming every bad key.
 *
 * @example
 * const config = loadGatewayConfig(); // { port: 3000, upstreams: { order: ['http://127.0.0.1:3001'], ... }, ... }
 */
export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const parsed = GatewayEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map(
      (issue) => `${where(issue.path, env)}: ${issue.message}`,
    );
    throw new Error(`Invalid gateway configuration: ${problems.join('; ')}`);
  }
  const e = parsed.data;
  return {
    host: e.HOST,
    port: e.PORT,
    upstreams: {
      order: e.ORDER_URL,
      inventory: e.INVENTORY_URL,
      payment: e.PAYMENT_URL,
      notification: e.NOTIFICATION_URL,
      'payment-provider': e.PAYMENT_PROVIDER_URL,
      'mail-sink': e.MAIL_SINK_URL,
    },
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    healthTimeoutMs: e.HEALTH_TIMEOUT_MS,
    requestTimeoutMs: e.REQUEST_TIMEOUT_MS,
    logLevel: e.LOG_LEVEL,
  };
}
