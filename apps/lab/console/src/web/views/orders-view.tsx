// #/: place an order, and the newest orders, refreshed whenever a saga event
// arrives on the console's stream.
import type { OrderList, StockLevelList } from '@effectively-once/contracts';
import type { FeedItem } from '../../api/console.api.js';
import { useState } from 'preact/hooks';
import { errorMessage } from '../api/http.js';
import { useDebounced } from '../api/use-debounced.js';
import { streamStateText, useEventSource } from '../api/use-event-source.js';
import { useResource } from '../api/use-resource.js';
import { DataTable } from '../components/data-table.js';
import { PlaceOrderForm } from '../components/place-order-form.js';
import { Badge } from '../components/status-badge.js';
import { formatDateTime, shortId } from '../model/format.js';
import { navigate, routes } from '../router.js';

type OrderSummary = OrderList['orders'][number];

const REFRESH_DEBOUNCE_MS = 300;

export function OrdersView() {
  const [formStatus, setFormStatus] = useState('');
  const inventory = useResource<StockLevelList>('/api/inventory');
  const orders = useResource<OrderList>('/api/orders?limit=20');
  const refresh = useDebounced(() => {
    orders.reload();
    inventory.reload();
  }, REFRESH_DEBOUNCE_MS);
  const stream = useEventSource<FeedItem>('/api/console/events', {
    onMessage: (item) => {
      if (item.kind === 'saga-event') refresh();
    },
  });

  const problems = [
    inventory.error === null ? null : `Could not load the SKUs. ${errorMessage(inventory.error)}`,
    orders.error === null ? null : `Could not load the orders. ${errorMessage(orders.error)}`,
  ].filter((text) => text !== null);

  return (
    <>
      <section aria-labelledby="place-order-title">
        <h2 id="place-order-title" tabIndex={-1}>
          Place an order
        </h2>
        <PlaceOrderForm
          stockLevels={inventory.data?.stockLevels ?? null}
          onStatus={setFormStatus}
          onPlaced={(order) => navigate(routes.order(order.orderId))}
        />
        <p role="status" class="status-line">
          {[formStatus, ...problems].filter((text) => text !== '').join(' ')}
        </p>
      </section>
      <section aria-labelledby="recent-orders-title">
        <h2 id="recent-orders-title">Recent orders</h2>
        <p class="muted">{streamStateText(stream)}. Newest first.</p>
        <DataTable<OrderSummary>
          name="Recent orders"
          rows={orders.data?.orders ?? []}
          rowKey={(order) => order.orderId}
          empty={orders.loading && orders.data === null ? 'Loading…' : 'No orders yet.'}
          columns={[
            {
              header: 'Order',
              cell: (order) => (
                <a href={routes.order(order.orderId)} title={order.orderId}>
                  {`Order ${shortId(order.orderId)}`}
                </a>
              ),
            },
            { header: 'Status', cell: (order) => <Badge text={order.status} /> },
            { header: 'Version', cell: (order) => order.version, numeric: true },
            { header: 'Placed (UTC)', cell: (order) => formatDateTime(order.placedAt) },
          ]}
        />
      </section>
    </>
  );
}
