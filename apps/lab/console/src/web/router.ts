// Hash routes: they work offline, can be shared as links and need no server
// routing. The route is derived from `location.hash` alone.
import { useEffect, useRef, useState } from 'preact/hooks';

export type Route =
  | { readonly view: 'orders' }
  | { readonly view: 'order'; readonly orderId: string }
  | { readonly view: 'lineage'; readonly orderId: string }
  | { readonly view: 'trace'; readonly orderId: string }
  | { readonly view: 'stuck' }
  | { readonly view: 'system' }
  | { readonly view: 'scenarios' }
  | { readonly view: 'run'; readonly runId: string }
  | { readonly view: 'not-found'; readonly hash: string };

/**
 * `#/`, `#/orders/<id>`, `#/orders/<id>/lineage`, `#/orders/<id>/trace`, `#/stuck`, `#/system`, `#/scenarios`,
 * `#/scenarios/runs/<id>`; anything else is not found.
 */
export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, '');
  if (path === '' || path === '/') return { view: 'orders' };
  if (path === '/system') return { view: 'system' };
  if (path === '/scenarios') return { view: 'scenarios' };
  if (path === '/stuck') return { view: 'stuck' };
  const order = /^\/orders\/([^/]+)$/.exec(path);
  if (order?.[1] !== undefined) return { view: 'order', orderId: decodeSegment(order[1]) };
  const lineage = /^\/orders\/([^/]+)\/lineage$/.exec(path);
  if (lineage?.[1] !== undefined) return { view: 'lineage', orderId: decodeSegment(lineage[1]) };
  const trace = /^\/orders\/([^/]+)\/trace$/.exec(path);
  if (trace?.[1] !== undefined) return { view: 'trace', orderId: decodeSegment(trace[1]) };
  const run = /^\/scenarios\/runs\/([^/]+)$/.exec(path);
  if (run?.[1] !== undefined) return { view: 'run', runId: decodeSegment(run[1]) };
  return { view: 'not-found', hash };
}

export const routes = {
  orders: '#/',
  order: (orderId: string) => `#/orders/${encodeURIComponent(orderId)}`,
  lineage: (orderId: string) => `#/orders/${encodeURIComponent(orderId)}/lineage`,
  trace: (orderId: string) => `#/orders/${encodeURIComponent(orderId)}/trace`,
  stuck: '#/stuck',
  system: '#/system',
  scenarios: '#/scenarios',
  run: (runId: string) => `#/scenarios/runs/${encodeURIComponent(runId)}`,
} as const;

/** A string that changes exactly when the view or its subject changes. */
export function routeKey(route: Route): string {
  switch (route.view) {
    case 'order':
      return `order:${route.orderId}`;
    case 'lineage':
      return `lineage:${route.orderId}`;
    case 'trace':
      return `trace:${route.orderId}`;
    case 'run':
      return `run:${route.runId}`;
    case 'not-found':
      return `not-found:${route.hash}`;
    case 'orders':
    case 'stuck':
    case 'system':
    case 'scenarios':
      return route.view;
    default:
      return assertNever(route);
  }
}

/** The current route, updated on every `hashchange`. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const onHashChange = (): void => setRoute(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onHashChange);
    return () => window.removeEventListener('hashchange', onHashChange);
  }, []);
  return route;
}

/**
 * After a route change (not the first render), moves focus to the new view's
 * first `h2`, so a screen reader announces where the user landed and Tab
 * continues from the top of the view.
 */
export function useFocusViewHeading(
  key: string,
  container: { readonly current: HTMLElement | null },
): void {
  const previous = useRef<string | null>(null);
  useEffect(() => {
    const isFirstRender = previous.current === null;
    previous.current = key;
    if (isFirstRender) return;
    container.current?.querySelector<HTMLElement>('h2')?.focus();
  }, [key, container]);
}

export function navigate(hash: string): void {
  window.location.hash = hash;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function assertNever(value: never): never {
  throw new Error(`unexpected route ${JSON.stringify(value)}`);
}
