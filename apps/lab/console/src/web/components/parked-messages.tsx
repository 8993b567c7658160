// Parked messages of every consumer group, and one replay button per consumer
// that has some. Replay acts with the authority of /admin, so it is offered
// only when the stack has an admin token; otherwise the button says why not.
import type { ParkedList, ReplayedParked } from '../../api/console.api.js';
import { useState } from 'preact/hooks';
import { errorMessage, postJson } from '../api/http.js';
import { DataTable } from './data-table.js';
import { ShortId } from './short-id.js';

type Parked = ParkedList['parked'][number];

export interface ParkedMessagesProps {
  readonly list: ParkedList | null;
  readonly operatorActions: boolean;
  /**
   * Success or failure of a replay, for the view's status line. After a
   * success the consumer's rows and its button go away, so the view moves
   * the focus elsewhere.
   */
  readonly onReplayed: (text: string, result: 'replayed' | 'failed') => void;
}

export function ParkedMessages({ list, operatorActions, onReplayed }: ParkedMessagesProps) {
  const [busy, setBusy] = useState<string | null>(null);
  const rows = list?.parked ?? [];
  const consumers = [...new Set(rows.map((row) => row.consumer))].sort();

  const replay = async (consumer: string): Promise<void> => {
    // Ignored rather than disabled while busy: a disabled button would drop the keyboard focus.
    if (busy !== null) return;
    setBusy(consumer);
    try {
      const answer = await postJson<ReplayedParked>('/api/console/parked/replay', { consumer });
      onReplayed(
        `Replayed ${answer.replayed.toString()} message(s) of ${answer.consumer}`,
        'replayed',
      );
    } catch (error) {
      onReplayed(`Replay of ${consumer} failed. ${errorMessage(error)}`, 'failed');
    } finally {
      setBusy(null);
    }
  };

  return (
    <>
      <DataTable<Parked>
        name="Parked messages"
        rows={rows}
        rowKey={(row) => `${row.consumer}:${row.eventId}`}
        empty={list === null ? 'Loading…' : 'No parked message.'}
        columns={[
          { header: 'Consumer', cell: (row) => row.consumer },
          { header: 'Event', cell: (row) => <ShortId id={row.eventId} /> },
          { header: 'Type', cell: (row) => row.type },
          {
            header: 'Order',
            cell: (row) => (row.orderId === null ? '' : <ShortId id={row.orderId} />),
          },
          { header: 'Reason', cell: (row) => row.reason ?? '' },
        ]}
      />
      {consumers.length === 0 ? null : (
        <>
          {operatorActions ? null : (
            <p class="note" id="replay-off-reason">
              Replay is off: it needs an admin token. Start the stack with <code>ADMIN_TOKEN</code>{' '}
              set, or in lab mode.
            </p>
          )}
          <ul class="actions-list">
            {consumers.map((consumer) => (
              <li key={consumer}>
                <button
                  type="button"
                  disabled={!operatorActions}
                  aria-describedby={operatorActions ? undefined : 'replay-off-reason'}
                  onClick={() => void replay(consumer)}
                >
                  {`Replay parked messages of ${consumer}`}
                </button>
              </li>
            ))}
          </ul>
        </>
      )}
    </>
  );
}
