// Asks each saga service what its own database knows about an order (GET
// /lineage/:orderId, ADR 0018), in parallel and with a short timeout each: a
// service that is down is reported as a failed source and the lineage is
// assembled from the others.
import { ServiceLineage } from '@effectively-once/contracts';
import { type StackTarget } from '@effectively-once/lab-stack';

export const LINEAGE_SERVICES = ['order', 'inventory', 'payment', 'notification'] as const;
export type LineageService = (typeof LINEAGE_SERVICES)[number];

export type ServiceAnswer =
  | { readonly service: LineageService; readonly ok: true; readonly lineage: ServiceLineage }
  | { readonly service: LineageService; readonly ok: false; readonly error: string };

export const DEFAULT_SERVICE_TIMEOUT_MS = 2_000;

/**
 * Each service's base URL, on the gateway's host as the stack runs them; the
 * second inventory process shares the first one's database, so one asks it.
 *
 * @example
 * serviceUrls(stack).payment; // 'http://127.0.0.1:3003'
 */
export function serviceUrls(stack: StackTarget): Readonly<Record<LineageService, string>> {
  // hostname keeps an IPv6 address in its brackets, as a URL needs it.
  const host = new URL(stack.gatewayUrl).hostname;
  const url = (port: number): string => `http://${host}:${String(port)}`;
  const { ports } = stack;
  return {
    order: url(ports.order),
    inventory: url(ports.inventory),
    payment: url(ports.payment),
    notification: url(ports.notification),
  };
}

async function ask(input: {
  service: LineageService;
  url: string;
  timeoutMs: number;
}): Promise<ServiceAnswer> {
  const { service, url, timeoutMs } = input;
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return { service, ok: false, error: `HTTP ${String(response.status)}` };
    const parsed = ServiceLineage.safeParse(await response.json());
    return parsed.success
      ? { service, ok: true, lineage: parsed.data }
      : { service, ok: false, error: 'an answer that is not a service lineage' };
  } catch (error) {
    const message =
      error instanceof Error && error.name === 'TimeoutError'
        ? `no answer within ${String(timeoutMs)} ms`
        : error instanceof Error
          ? error.message
          : String(error);
    return { service, ok: false, error: message };
  }
}

/**
 * @example
 * const answers = await askServices({ urls: serviceUrls(stack), orderId, messageIds });
 */
export function askServices(input: {
  urls: Readonly<Record<LineageService, string>>;
  orderId: string;
  messageIds: readonly string[];
  timeoutMs?: number;
}): Promise<ServiceAnswer[]> {
  const query = new URLSearchParams({ messageIds: input.messageIds.join(',') });
  const path = `/lineage/${encodeURIComponent(input.orderId)}?${query.toString()}`;
  return Promise.all(
    LINEAGE_SERVICES.map((service) =>
      ask({
        service,
        url: input.urls[service] + path,
        timeoutMs: input.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS,
      }),
    ),
  );
}

/**
 * The order service's deadline timers of one order (its part of the lineage);
 * none when it does not answer, which the stuck list then simply lacks.
 *
 * @example
 * const timers = await orderTimers({ orderUrl: serviceUrls(stack).order, orderId });
 */
export async function orderTimers(input: {
  orderUrl: string;
  orderId: string;
  timeoutMs?: number;
}): Promise<ServiceLineage['timers']> {
  const answer = await ask({
    service: 'order',
    url: `${input.orderUrl}/lineage/${encodeURIComponent(input.orderId)}`,
    timeoutMs: input.timeoutMs ?? DEFAULT_SERVICE_TIMEOUT_MS,
  });
  return answer.ok ? answer.lineage.timers : [];
}
