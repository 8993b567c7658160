// The network panel (lab mode): the fault proxy's links between the services
// and PostgreSQL, the card processor and the SMTP sink, with a form to apply
// a fault to one for a while and a button to clear one now.
import type { ConsoleLink, ConsoleLinkFault, ConsoleLinks } from '../../api/console.api.js';
import { useEffect, useState } from 'preact/hooks';
import { errorMessage, postJson } from '../api/http.js';
import { useResource } from '../api/use-resource.js';
import { formatTime } from '../model/format.js';
import { DataTable } from './data-table.js';

/** Counters move while faults are in force: poll while the panel is open. */
const POLL_MS = 2_000;
type Kind = ConsoleLinkFault['kind'];
const KINDS: readonly { kind: Kind; label: string }[] = [
  { kind: 'latency', label: 'latency (delay each chunk)' },
  { kind: 'reset', label: 'reset (open and new connections)' },
  { kind: 'blackhole', label: 'blackhole (accept, forward nothing)' },
  { kind: 'trickle', label: 'trickle (bytes per second)' },
  { kind: 'refuse', label: 'refuse (upstream looks down)' },
];

/** The form's fields as a fault; the server validates the numbers again. */
export function faultOf(input: { kind: Kind; seconds: number; amount: number }): ConsoleLinkFault {
  const durationMs = Math.round(input.seconds * 1000);
  switch (input.kind) {
    case 'latency':
      return { kind: 'latency', delayMs: Math.round(input.amount), durationMs };
    case 'trickle':
      return { kind: 'trickle', bytesPerSecond: Math.round(input.amount), durationMs };
    case 'reset':
    case 'blackhole':
    case 'refuse':
      return { kind: input.kind, durationMs };
  }
}

function faultText(link: ConsoleLink): string {
  if (link.active.length === 0) return 'none';
  return link.active
    .map((fault) => {
      const detail =
        fault.kind === 'latency'
          ? ` ${String(fault.delayMs)} ms`
          : fault.kind === 'trickle'
            ? ` ${String(fault.bytesPerSecond)} B/s`
            : '';
      return `${fault.kind}${detail} until ${formatTime(fault.until)}`;
    })
    .join('; ');
}

/** `onMessage` writes to the view's one status line: a page has one live region. */
export function LinksPanel({ onMessage }: { readonly onMessage: (text: string) => void }) {
  const links = useResource<ConsoleLinks>('/api/console/links');
  const [link, setLink] = useState('');
  const [kind, setKind] = useState<Kind>('latency');
  const [seconds, setSeconds] = useState(10);
  const [amount, setAmount] = useState(200);
  const reload = links.reload;
  useEffect(() => {
    const timer = setInterval(reload, POLL_MS);
    return () => clearInterval(timer);
  }, [reload]);
  const names = links.data?.links.map((row) => row.name) ?? [];
  const chosen = link === '' ? (names[0] ?? '') : link;

  const act = async (what: string, path: string, body: unknown): Promise<void> => {
    try {
      await postJson<ConsoleLink>(path, body);
      onMessage(what);
    } catch (error) {
      onMessage(`Could not ${what.toLowerCase()}. ${errorMessage(error)}`);
    }
    reload();
  };

  return (
    <>
      {links.error === null ? null : (
        <p class="note">{`Could not load the links. ${errorMessage(links.error)}`}</p>
      )}
      <DataTable
        name="Network links"
        rows={links.data?.links ?? []}
        rowKey={(row) => row.name}
        empty="No links: the stack runs without the lab."
        columns={[
          { header: 'Link', cell: (row) => row.name },
          { header: 'Open', numeric: true, cell: (row) => row.openConnections },
          { header: 'Bytes up', numeric: true, cell: (row) => row.bytesUp },
          { header: 'Bytes down', numeric: true, cell: (row) => row.bytesDown },
          { header: 'Resets', numeric: true, cell: (row) => row.resets },
          { header: 'Faults in force', cell: faultText },
          {
            header: 'Action',
            cell: (row) => (
              <button
                type="button"
                disabled={row.active.length === 0}
                onClick={() =>
                  void act(
                    `Cleared ${row.name}`,
                    `/api/console/links/${encodeURIComponent(row.name)}/clear`,
                    {},
                  )
                }
              >
                {`Clear ${row.name}`}
              </button>
            ),
          },
        ]}
      />
      <form
        class="link-fault-form"
        aria-label="Apply a network fault"
        onSubmit={(event) => {
          event.preventDefault();
          void act(
            `Applied ${kind} to ${chosen}`,
            `/api/console/links/${encodeURIComponent(chosen)}/faults`,
            faultOf({ kind, seconds, amount }),
          );
        }}
      >
        <label for="link-fault-link">Link</label>{' '}
        <select
          id="link-fault-link"
          value={chosen}
          onChange={(event) => setLink(event.currentTarget.value)}
        >
          {names.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>{' '}
        <label for="link-fault-kind">Fault</label>{' '}
        <select
          id="link-fault-kind"
          value={kind}
          onChange={(event) => setKind(event.currentTarget.value as Kind)}
        >
          {KINDS.map((option) => (
            <option key={option.kind} value={option.kind}>
              {option.label}
            </option>
          ))}
        </select>{' '}
        {kind === 'latency' || kind === 'trickle' ? (
          <>
            <label for="link-fault-amount">
              {kind === 'latency' ? 'Delay (ms)' : 'Bytes per second'}
            </label>{' '}
            <input
              id="link-fault-amount"
              type="number"
              min={1}
              value={amount}
              onInput={(event) => setAmount(Number(event.currentTarget.value))}
            />{' '}
          </>
        ) : null}
        <label for="link-fault-seconds">For (s)</label>{' '}
        <input
          id="link-fault-seconds"
          type="number"
          min={0}
          max={600}
          value={seconds}
          onInput={(event) => setSeconds(Number(event.currentTarget.value))}
        />{' '}
        <button type="submit" disabled={chosen === ''}>
          Apply fault
        </button>
      </form>
    </>
  );
}
