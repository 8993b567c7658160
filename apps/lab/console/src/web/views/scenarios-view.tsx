// #/scenarios: the failure scenarios and the mistakes that break them, each
// run by the console process against this stack (lab mode only), one at a time.
import type { RunSummary, ScenarioCatalog } from '../../api/console.api.js';
import { useEffect, useState } from 'preact/hooks';
import { errorMessage, postJson } from '../api/http.js';
import { useResource } from '../api/use-resource.js';
import { DataTable } from '../components/data-table.js';
import { Badge } from '../components/status-badge.js';
import { formatDateTime } from '../model/format.js';
import { navigate, routes } from '../router.js';

/** While a run is in progress the catalog is polled, so the buttons come back when it ends. */
const POLL_WHILE_RUNNING_MS = 2_000;

export function ScenariosView() {
  const catalog = useResource<ScenarioCatalog>('/api/console/scenarios');
  const [starting, setStarting] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const running = catalog.data?.runs.find((run) => run.status === 'running') ?? null;

  const reload = catalog.reload;
  useEffect(() => {
    if (running === null) return undefined;
    const timer = setInterval(reload, POLL_WHILE_RUNNING_MS);
    return () => clearInterval(timer);
  }, [running, reload]);

  const start = async (name: string): Promise<void> => {
    if (starting !== null || running !== null) return;
    setStarting(name);
    setFailure(null);
    try {
      const run = await postJson<RunSummary>('/api/console/scenarios/runs', { name });
      navigate(routes.run(run.runId));
    } catch (error) {
      setFailure(`Could not start ${name}. ${errorMessage(error)}`);
      setStarting(null);
      reload();
    }
  };

  const busyName = starting ?? running?.name ?? null;
  const statusText =
    failure ??
    (busyName !== null
      ? `Running ${busyName}`
      : catalog.error !== null
        ? `Could not load the scenarios. ${errorMessage(catalog.error)}`
        : '');

  return (
    <>
      <section aria-labelledby="view-title">
        <h2 id="view-title" tabIndex={-1}>
          Scenarios
        </h2>
        <p role="status" class="status-line">
          {statusText}
        </p>
        {catalog.data === null ? (
          <p class="muted">{catalog.error === null ? 'Loading…' : ''}</p>
        ) : catalog.data.labMode ? (
          <ScenarioCards
            catalog={catalog.data}
            busy={busyName !== null}
            onRun={(name) => void start(name)}
          />
        ) : (
          <p class="note">
            Scenarios need lab mode. Stop the stack and start it with{' '}
            <code>STACK_FAULTS=true pnpm start</code>, then come back here.
          </p>
        )}
      </section>
      {catalog.data?.labMode === true ? (
        <section aria-labelledby="mistakes-title">
          <h2 id="mistakes-title">Mistakes</h2>
          <MistakeCards
            catalog={catalog.data}
            busy={busyName !== null}
            onRun={(name) => void start(name)}
          />
        </section>
      ) : null}
      {catalog.data === null || catalog.data.runs.length === 0 ? null : (
        <section aria-labelledby="runs-title">
          <h2 id="runs-title">Recent runs</h2>
          <DataTable<RunSummary>
            name="Recent runs"
            rows={catalog.data.runs}
            rowKey={(run) => run.runId}
            empty="No run yet."
            columns={[
              { header: 'Run', cell: (run) => <a href={routes.run(run.runId)}>{run.name}</a> },
              { header: 'Status', cell: (run) => <Badge text={run.status} /> },
              { header: 'Started (UTC)', cell: (run) => formatDateTime(run.startedAt) },
              {
                header: 'Duration',
                cell: (run) =>
                  run.durationMs === null ? '' : `${(run.durationMs / 1000).toFixed(1)} s`,
                numeric: true,
              },
            ]}
          />
        </section>
      )}
    </>
  );
}

interface CardsProps {
  readonly catalog: ScenarioCatalog;
  readonly busy: boolean;
  readonly onRun: (name: string) => void;
}

function ScenarioCards({ catalog, busy, onRun }: CardsProps) {
  return (
    <>
      <p>
        Each scenario drives this stack into one failure (a crash, a duplicate, a race) and then
        checks every invariant. A run takes seconds to a minute; one runs at a time.
      </p>
      <div class="cards">
        {catalog.scenarios.map((scenario) => (
          <article key={scenario.name} class="card">
            <h3>{scenario.title}</h3>
            <p>{scenario.summary}</p>
            <RunButton name={scenario.name} busy={busy} onRun={onRun} />
          </article>
        ))}
      </div>
    </>
  );
}

function MistakeCards({ catalog, busy, onRun }: CardsProps) {
  return (
    <>
      <p>
        Each mistake switches a consumer to a common wrong implementation and runs a scenario, which
        must then break an invariant: proof that the right implementation is what holds it.
      </p>
      <div class="cards">
        {catalog.mistakes.map((mistake) => (
          <article key={mistake.name} class="card">
            <h3>{`Mistake: ${mistake.mistake}`}</h3>
            <p>{mistake.summary}</p>
            <p class="muted">{`Runs ${mistake.scenario}; must break ${mistake.breaks}.`}</p>
            <RunButton name={mistake.name} busy={busy} onRun={onRun} />
          </article>
        ))}
      </div>
    </>
  );
}

function RunButton(props: {
  readonly name: string;
  readonly busy: boolean;
  readonly onRun: (name: string) => void;
}) {
  return (
    <button type="button" disabled={props.busy} onClick={() => props.onRun(props.name)}>
      {`Run ${props.name}`}
    </button>
  );
}
