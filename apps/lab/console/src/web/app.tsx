// The page's frame: skip link, banner, navigation, the lab-mode line, and the
// view the hash route names inside <main>.
import type { ConsoleStatus } from '../api/console.api.js';
import { useEffect, useRef } from 'preact/hooks';
import { useResource } from './api/use-resource.js';
import { routeKey, routes, useFocusViewHeading, useRoute, type Route } from './router.js';
import { LineageView } from './views/lineage-view.js';
import { TraceView } from './views/trace-view.js';
import { NotFoundView } from './views/not-found-view.js';
import { OrderView } from './views/order-view.js';
import { OrdersView } from './views/orders-view.js';
import { RunView } from './views/run-view.js';
import { ScenariosView } from './views/scenarios-view.js';
import { StuckView } from './views/stuck-view.js';
import { SystemView } from './views/system-view.js';

const STATUS_RETRY_MS = 5_000;

export function App() {
  const route = useRoute();
  const main = useRef<HTMLElement>(null);
  const status = useResource<ConsoleStatus>('/api/console/status');
  useFocusViewHeading(routeKey(route), main);

  const { error, reload } = status;
  useEffect(() => {
    if (error === null) return undefined;
    const timer = setTimeout(reload, STATUS_RETRY_MS);
    return () => clearTimeout(timer);
  }, [error, reload]);

  return (
    <>
      <a
        class="skip-link"
        href="#content"
        onClick={(event) => {
          // A plain #content would change the hash route.
          event.preventDefault();
          main.current?.focus();
        }}
      >
        Skip to content
      </a>
      <header class="banner">
        <h1>effectively-once flow console</h1>
        <nav aria-label="Console">
          <ul>
            <NavLink
              href={routes.orders}
              current={
                route.view === 'orders' ||
                route.view === 'order' ||
                route.view === 'lineage' ||
                route.view === 'trace'
              }
            >
              Orders
            </NavLink>
            <NavLink href={routes.stuck} current={route.view === 'stuck'}>
              Stuck
            </NavLink>
            <NavLink href={routes.system} current={route.view === 'system'}>
              System
            </NavLink>
            <NavLink
              href={routes.scenarios}
              current={route.view === 'scenarios' || route.view === 'run'}
            >
              Scenarios
            </NavLink>
          </ul>
        </nav>
        <p class="lab-mode">{labModeText(status.data, error)}</p>
      </header>
      <main id="content" ref={main} tabIndex={-1}>
        <CurrentView route={route} status={status.data} />
      </main>
    </>
  );
}

function CurrentView({
  route,
  status,
}: {
  readonly route: Route;
  readonly status: ConsoleStatus | null;
}) {
  switch (route.view) {
    case 'orders':
      return <OrdersView />;
    case 'order':
      return <OrderView key={route.orderId} orderId={route.orderId} status={status} />;
    case 'lineage':
      return <LineageView key={route.orderId} orderId={route.orderId} status={status} />;
    case 'trace':
      return <TraceView key={route.orderId} orderId={route.orderId} />;
    case 'stuck':
      return <StuckView />;
    case 'system':
      return <SystemView status={status} />;
    case 'scenarios':
      return <ScenariosView />;
    case 'run':
      return <RunView key={route.runId} runId={route.runId} />;
    case 'not-found':
      return <NotFoundView hash={route.hash} />;
    default:
      return assertNever(route);
  }
}

function NavLink(props: {
  readonly href: string;
  readonly current: boolean;
  readonly children: string;
}) {
  return (
    <li>
      <a href={props.href} aria-current={props.current ? 'page' : undefined}>
        {props.children}
      </a>
    </li>
  );
}

function labModeText(status: ConsoleStatus | null, error: unknown): string {
  if (status !== null) return status.labMode ? 'Lab mode: on' : 'Lab mode: off';
  return error === null ? 'Lab mode: checking…' : 'Lab mode: unknown (the console does not answer)';
}

function assertNever(value: never): never {
  throw new Error(`unexpected route ${JSON.stringify(value)}`);
}
