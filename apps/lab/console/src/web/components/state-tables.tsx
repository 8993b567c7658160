// The system view's read-only tables: what inventory, the card processor and
// the mail sink hold right now.
import type { EmailList, Ledger, StockLevelList } from '@effectively-once/contracts';
import { formatCents, formatDateTime } from '../model/format.js';
import { DataTable } from './data-table.js';
import { ShortId } from './short-id.js';
import { Badge } from './status-badge.js';

/** Long lists show their newest rows only; the API has them all. */
const NEWEST = 50;

type StockLevel = StockLevelList['stockLevels'][number];
type Authorization = Ledger['authorizations'][number];
type Email = EmailList['emails'][number];

export function InventoryTable({ list }: { readonly list: StockLevelList | null }) {
  return (
    <DataTable<StockLevel>
      name="Inventory"
      rows={list?.stockLevels ?? []}
      rowKey={(level) => level.sku}
      empty={list === null ? 'Loading…' : 'No SKU restocked yet.'}
      columns={[
        { header: 'SKU', cell: (level) => level.sku },
        { header: 'Available', cell: (level) => level.available, numeric: true },
        { header: 'Reserved', cell: (level) => level.reserved, numeric: true },
        { header: 'Consumed', cell: (level) => level.consumed, numeric: true },
        { header: 'Stocked', cell: (level) => level.stocked, numeric: true },
      ]}
    />
  );
}

export function LedgerTable({ ledger }: { readonly ledger: Ledger | null }) {
  const all = ledger?.authorizations ?? [];
  return (
    <>
      <NewestNote shown={Math.min(all.length, NEWEST)} total={all.length} />
      <DataTable<Authorization>
        name="Payment ledger"
        rows={all.slice(-NEWEST).reverse()}
        rowKey={(entry) => entry.authorizationId}
        empty={ledger === null ? 'Loading…' : 'No authorization yet.'}
        columns={[
          { header: 'Authorization', cell: (entry) => <ShortId id={entry.authorizationId} /> },
          {
            header: 'Idempotency key',
            cell: (entry) => <ShortId id={entry.idempotencyKey} kind="key" />,
          },
          { header: 'Amount', cell: (entry) => formatCents(entry.amountCents), numeric: true },
          { header: 'Status', cell: (entry) => <Badge text={entry.status} /> },
          { header: 'Created (UTC)', cell: (entry) => formatDateTime(entry.createdAt) },
          {
            header: 'Captured (UTC)',
            cell: (entry) => (entry.capturedAt === null ? '' : formatDateTime(entry.capturedAt)),
          },
          {
            header: 'Voided (UTC)',
            cell: (entry) => (entry.voidedAt === null ? '' : formatDateTime(entry.voidedAt)),
          },
        ]}
      />
    </>
  );
}

export function EmailsTable({ list }: { readonly list: EmailList | null }) {
  const all = list?.emails ?? [];
  return (
    <>
      <NewestNote shown={Math.min(all.length, NEWEST)} total={all.length} />
      <DataTable<Email>
        name="Emails"
        rows={all.slice(-NEWEST).reverse()}
        rowKey={(email) => `${email.messageId}:${email.receivedAt}`}
        empty={list === null ? 'Loading…' : 'No email yet.'}
        columns={[
          { header: 'Received (UTC)', cell: (email) => formatDateTime(email.receivedAt) },
          { header: 'To', cell: (email) => email.to.join(', ') },
          { header: 'Subject', cell: (email) => email.subject },
          {
            header: 'Order',
            cell: (email) => (email.orderId === null ? '' : <ShortId id={email.orderId} />),
          },
          {
            header: 'Duplicate',
            cell: (email) => (email.duplicate ? <Badge text="duplicate" /> : 'no'),
          },
        ]}
      />
    </>
  );
}

function NewestNote({ shown, total }: { readonly shown: number; readonly total: number }) {
  if (shown === total) return null;
  return <p class="muted">{`Newest ${shown.toString()} of ${total.toString()}, newest first.`}</p>;
}
