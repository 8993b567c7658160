// #/scenarios/runs/<id>: one scenario run, its timeline growing live from the
// run's stream until the `finished` message brings the verdict.
import type { RunStreamMessage, RunView as Run } from '../../api/console.api.js';
import { useEffect, useState } from 'preact/hooks';
import { errorMessage } from '../api/http.js';
import { streamStateText, useEventSource } from '../api/use-event-source.js';
import { useResource } from '../api/use-resource.js';
import { VerdictPanel } from '../components/verdict-panel.js';
import { formatTime, shortId } from '../model/format.js';
import {
  adoptFetchedRun,
  describeRunItem,
  runStatusText,
  runTimelineKey,
  withTimelineItems,
} from '../model/run-timeline.js';
import { routes } from '../router.js';

const RELOAD_WHILE_RUNNING_MS = 5_000;

export function RunView({ runId }: { readonly runId: string }) {
  const path = `/api/console/scenarios/runs/${encodeURIComponent(runId)}`;
  const loaded = useResource<Run>(path);
  const [run, setRun] = useState<Run | null>(null);

  useEffect(() => {
    const fetched = loaded.data;
    if (fetched !== null) setRun((held) => adoptFetchedRun(held, fetched));
  }, [loaded.data]);

  const live = run?.status === 'running';
  // A safety net under the stream: should its `finished` message be missed
  // (a reconnect at the wrong moment), the run's own answer still ends it.
  const reload = loaded.reload;
  useEffect(() => {
    if (!live) return undefined;
    const timer = setInterval(reload, RELOAD_WHILE_RUNNING_MS);
    return () => clearInterval(timer);
  }, [live, reload]);
  const stream = useEventSource<RunStreamMessage>(live ? `${path}/events` : null, {
    onMessage: (message) => {
      switch (message.kind) {
        case 'timeline':
          setRun((held) => (held === null ? held : withTimelineItems(held, [message.item])));
          break;
        case 'finished':
          setRun(message.run);
          break;
        default:
          assertNever(message);
      }
    },
  });

  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {run?.name ?? `Run ${shortId(runId)}`}
      </h2>
      <p role="status" class="status-line">
        {run !== null
          ? runStatusText(run)
          : loaded.error !== null
            ? errorMessage(loaded.error)
            : 'Loading the run…'}
      </p>
      <p>
        <a href={routes.scenarios}>Back to the scenarios</a>
      </p>
      {run === null ? null : (
        <>
          <p class="muted">
            {/* A mistake's title already names it ("..., with the mistake ..."). */}
            {run.title}
            {live ? ` ${streamStateText(stream)}.` : ''}
          </p>
          {run.error === null ? null : <p class="note">{`The run failed: ${run.error}`}</p>}
          <h3>Timeline</h3>
          <ol class="run-timeline" aria-label="Run timeline" tabIndex={0}>
            {run.timeline.map((item) => (
              <li key={runTimelineKey(item)} class={`run-item-${item.kind}`}>
                <time dateTime={item.at}>{formatTime(item.at)}</time> {describeRunItem(item)}
              </li>
            ))}
          </ol>
          <h3>Verdict</h3>
          {run.verdict === null ? (
            <p class="muted">
              {live ? 'The verdict comes when the run ends.' : 'This run has no verdict.'}
            </p>
          ) : (
            <VerdictPanel verdict={run.verdict} />
          )}
        </>
      )}
    </section>
  );
}

function assertNever(value: never): never {
  throw new Error(`unexpected run message ${JSON.stringify(value)}`);
}
