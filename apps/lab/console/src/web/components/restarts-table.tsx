// The stack's latest starts and deaths, the embedded PostgreSQL server's
// included: a crash the supervisor recovered from leaves no other trace here.
import type { ProcessEventList, ProcessEventView } from '../../api/console.api.js';
import { formatTime } from '../model/format.js';
import { DataTable } from './data-table.js';

function whatHappened(event: ProcessEventView): string {
  if (event.restartInMs === null) return event.what;
  return `${event.what}; restarted after ${String(event.restartInMs)} ms`;
}

export function RestartsTable({ list }: { readonly list: ProcessEventList | null }) {
  return (
    <DataTable<ProcessEventView>
      name="Process starts and deaths"
      rows={list?.events ?? []}
      rowKey={(event) => `${event.at}-${event.process}-${String(event.pid)}-${event.what}`}
      empty={
        list === null ? 'Loading…' : 'No process has started or died since the console started.'
      }
      columns={[
        { header: 'Time (UTC)', cell: (event) => formatTime(event.at) },
        { header: 'Process', cell: (event) => event.process },
        { header: 'pid', cell: (event) => event.pid, numeric: true },
        { header: 'What happened', cell: whatHappened },
      ]}
    />
  );
}
