// Markers cannot be kept forever, and a marker that is gone cannot stop a
// replay. So retention and replay share one number, the consumer's replay
// horizon: markers are pruned only when older than it, and a message older
// than it is refused for replay (an explicit repair with its own business key
// is the way to redo old work). To show it without waiting months, the
// scenario moves one order's event and marker 200 days into the past, in the
// embedded event store's table: this scenario runs on the embedded store only.
import { orderStream } from '@effectively-once/contracts';
import type { Scenario } from '../scenario.js';
import {
  ageEventAndDemandMarker,
  DEMAND,
  demandMarkerExists,
  entry,
  orderPlacedOf,
} from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export const oldReplay: Scenario = {
  name: 'old-replay',
  title: 'Marker retention versus an old replay: refused, never applied twice',
  summary:
    'An order\u2019s OrderPlaced and its inventory-demand-v1 marker are moved 200 days back. Pruning markers younger than the 30-day replay horizon is refused; pruning older ones deletes that marker. Replaying the 200-day-old message is then refused (its marker may be gone); replaying a recent one is a duplicate. The tally never counts an order twice.',
  async run(context) {
    const sku = await context.freshSku(10);
    const old = await context.placeOrder({ sku, quantity: 1 });
    const recent = await context.placeOrder({ sku, quantity: 2 });
    await context.waitForOrder(old, ['confirmed']);
    await context.waitForOrder(recent, ['confirmed']);
    const oldPlaced = await orderPlacedOf(context, old);
    const recentPlaced = await orderPlacedOf(context, recent);
    await context.waitForJournal(
      'the tally to count the old order',
      entry({ kind: 'acked', consumer: DEMAND, messageId: oldPlaced.id }),
    );
    await context.waitForJournal(
      'the tally to count the recent order',
      entry({ kind: 'acked', consumer: DEMAND, messageId: recentPlaced.id }),
    );
    await ageEventAndDemandMarker(context, { eventId: oldPlaced.id, days: 200 });
    context.step(
      `time travel: OrderPlaced ${oldPlaced.id.slice(0, 8)} and its marker are now 200 days old`,
    );

    const tooShort = await context.api.pruneMarkers('inventory', DEMAND, DAY_MS);
    context.expect(
      'pruning markers younger than the replay horizon is refused',
      tooShort.status === 409,
      `${String(tooShort.status)} ${tooShort.text}`,
    );
    context.step(`prune markers older than 1 day: ${String(tooShort.status)}`);
    const pruned = await context.api.pruneMarkers('inventory', DEMAND, 90 * DAY_MS);
    context.expect(
      'pruning markers older than 90 days deletes the old marker',
      pruned.status === 200 && !(await demandMarkerExists(context, oldPlaced.id)),
      pruned.text,
    );
    context.step(`prune markers older than 90 days: ${pruned.text}`);

    const oldReplayAnswer = await context.api.replay(
      'inventory',
      DEMAND,
      orderStream(old),
      oldPlaced.revision,
    );
    context.expect(
      'replaying the 200-day-old message is refused',
      oldReplayAnswer.status === 409,
      `${String(oldReplayAnswer.status)} ${oldReplayAnswer.text}`,
    );
    context.step(`replay of the old message: ${String(oldReplayAnswer.status)}`);
    const recentReplayAnswer = await context.api.replay(
      'inventory',
      DEMAND,
      orderStream(recent),
      recentPlaced.revision,
    );
    context.expect(
      'replaying a recent message is a duplicate',
      recentReplayAnswer.status === 200 && recentReplayAnswer.text.includes('duplicate'),
      recentReplayAnswer.text,
    );
    context.step(`replay of the recent message: ${recentReplayAnswer.text}`);
  },
};
