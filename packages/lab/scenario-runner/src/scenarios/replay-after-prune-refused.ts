// The parked message that was in fact applied. The tally commits an order's
// OrderPlaced, but every delivery's ack is lost (the lab hands it back after
// the commit), so after the lab's retry limit the store parks a message whose
// effect and marker are both there. Months later the marker is pruned, as
// retention allows. A replay of the parked message would now meet no marker
// and count the order a second time; the service refuses it, per group and
// per message, because the message is older than the consumer's replay
// horizon and has no marker. Time is moved with SQL on the embedded store's
// table, as in old-replay: this scenario runs on the embedded store only.
// The order stays out of the audit's scope: its message ends parked on
// purpose, which nothing-parked would rightly report; the scenario checks
// the tally itself.
import type { Scenario, ScenarioContext } from '../scenario.js';
import {
  ageEventAndDemandMarker,
  DEMAND,
  demandMarkerExists,
  entry,
  orderPlacedOf,
} from './support.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Waits until inventory-demand-v1 has parked `eventId`, and returns the reason it gives. */
async function parkedReason(context: ScenarioContext, eventId: string): Promise<string> {
  return context.waitUntil(
    'the committed message to be parked',
    async () => {
      const { parked } = await context.api.parked('inventory', DEMAND);
      const message = parked.find((candidate) => candidate.eventId === eventId);
      return message === undefined ? undefined : (message.reason ?? '');
    },
    60_000,
  );
}

async function stillParked(context: ScenarioContext, eventId: string): Promise<boolean> {
  const { parked } = await context.api.parked('inventory', DEMAND);
  return parked.some((candidate) => candidate.eventId === eventId);
}

export const replayAfterPruneRefused: Scenario = {
  name: 'replay-after-prune-refused',
  title: 'A parked message that was applied, its marker pruned: the replay is refused',
  summary:
    'inventory-demand-v1 counts an order, but every ack of its OrderPlaced is lost, so the store parks a message whose effect committed. The event and its marker are moved 200 days back and the marker is pruned. Replaying the parked message, for the whole group or by itself, is refused with 409 PARKED_REPLAY_BEYOND_HORIZON: it is older than the 30-day replay horizon and has no marker. The tally counts the order once.',
  async run(context) {
    const sku = await context.freshSku(10);
    await context.lab.armInventory({
      point: 'after-commit-before-ack',
      action: 'redeliver',
      match: { consumer: DEMAND, eventType: 'OrderPlaced' },
      times: 1_000,
    });
    context.step('armed: every delivery of OrderPlaced to inventory-demand-v1 loses its ack');
    const { orderId } = await context.api.placeOrder({ sku, quantity: 1 });
    context.step(`placed order ${orderId.slice(0, 8)}: 1 x ${sku} (left out of the audit)`);
    await context.waitForJournal(
      'the tally to count the order',
      entry({ kind: 'handled', consumer: DEMAND, orderId }),
    );
    const placed = await orderPlacedOf(context, orderId);
    const reason = await parkedReason(context, placed.id);
    await context.lab.disarm('inventory');
    await context.lab.disarm('inventory-2');
    context.step(`parked after its last allowed delivery (${reason})`);
    context.expect(
      'the parked message had committed: its marker is there',
      await demandMarkerExists(context, placed.id),
    );
    await context.waitForOrder(orderId, ['confirmed']);

    await ageEventAndDemandMarker(context, { eventId: placed.id, days: 200 });
    const pruned = await context.api.pruneMarkers('inventory', DEMAND, 90 * DAY_MS);
    context.expect(
      'retention prunes the 200-day-old marker',
      pruned.status === 200 && !(await demandMarkerExists(context, placed.id)),
      pruned.text,
    );
    context.step(`200 days later, markers older than 90 days are pruned: ${pruned.text}`);

    const group = await context.api.replayParkedAs('inventory', DEMAND);
    context.expect(
      'replaying the group is refused, naming the message',
      group.status === 409 &&
        group.text.includes('PARKED_REPLAY_BEYOND_HORIZON') &&
        group.text.includes(placed.id),
      `${String(group.status)} ${group.text}`,
    );
    context.step(`replay of the group's parked messages: ${String(group.status)}`);
    const one = await context.api.replayParkedAs('inventory', DEMAND, { eventId: placed.id });
    context.expect(
      'replaying that message by itself is refused too',
      one.status === 409 && one.text.includes('PARKED_REPLAY_BEYOND_HORIZON'),
      `${String(one.status)} ${one.text}`,
    );
    context.step(`replay of the message by itself: ${String(one.status)}`);
    context.expect(
      'the message is still parked, for a repair with its own business key',
      await stillParked(context, placed.id),
    );
    const tally = await context.api.demand(sku);
    context.expect(
      'the tally counts the order once',
      tally?.orders === 1 && tally.unitsOrdered === 1,
      JSON.stringify(tally),
    );
    context.step(`the tally of ${sku}: ${JSON.stringify(tally)}`);
  },
};
