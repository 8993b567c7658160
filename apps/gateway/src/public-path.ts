// A service names its resources by its own paths (Location: /orders/42); a
// client of the gateway needs the public one (/api/orders/42). This maps back
// through the same table the requests go out by.
import type { ServiceName } from '@effectively-once/contracts';
import type { ForwardedRoute } from './routes/forward.routes.js';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `/orders/:orderId` → /^\/orders\/([^/]+)$/ with the parameter names in order. */
function templatePattern(template: string): { pattern: RegExp; names: string[] } {
  const names: string[] = [];
  const source = template
    .split('/')
    .map((segment) => {
      if (!segment.startsWith(':')) return escapeRegExp(segment);
      names.push(segment.slice(1));
      return '([^/]+)';
    })
    .join('/');
  return { pattern: new RegExp(`^${source}$`), names };
}

/**
 * The public path for a path of `service`, or the path unchanged when no
 * public route leads there (or it is an absolute URL).
 *
 * @example
 * toPublicPath(FORWARDED_ROUTES, 'order', '/orders/42'); // '/api/orders/42'
 */
export function toPublicPath(
  routes: readonly ForwardedRoute[],
  service: ServiceName,
  servicePath: string,
): string {
  const [path = '', query] = servicePath.split(/\?(.*)/s);
  for (const route of routes) {
    if (route.service !== service) continue;
    const { pattern, names } = templatePattern(route.upstreamPath);
    const match = pattern.exec(path);
    if (match === null) continue;
    // The captured segments are still percent-encoded: they go back as they came.
    const publicPath = names.reduce(
      (filled, name, index) => filled.replace(`:${name}`, match[index + 1] ?? ''),
      route.path,
    );
    return query === undefined ? publicPath : `${publicPath}?${query}`;
  }
  return servicePath;
}
