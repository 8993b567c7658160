// The unique index as the arbiter, seen from both sides. The winner holds its
// transaction open right after its marker INSERT; the loser, given the same
// message when the winner's lease runs out, blocks on the index (its wait is
// visible in pg_stat_activity). The winner's commit turns the loser's claim
// into "no row" (duplicate); the winner's rollback lets the loser apply.
import type { Scenario, ScenarioContext } from '../scenario.js';
import { DEMAND, entry } from './support.js';
import type { LabService } from '../stack/lab-stack.js';

async function raceForTheMarker(context: ScenarioContext, winnerEnds: 'continue' | 'fail') {
  const sku = await context.freshSku(10);
  await context.lab.armInventory({
    point: 'after-claim',
    action: 'hold',
    match: { consumer: DEMAND, eventType: 'OrderPlaced' },
  });
  context.step(
    'armed on inventory and inventory-2: hold inventory-demand-v1 right after its claim',
  );
  const orderId = await context.placeOrder({ sku, quantity: 2 });
  const held = await context.waitForJournal(
    'the winner to hold its claim',
    entry({ kind: 'held', consumer: DEMAND, orderId }),
  );
  const statuses = await Promise.all([
    context.lab.status('inventory'),
    context.lab.status('inventory-2'),
  ]);
  const winner: LabService = statuses[0].pid === held.pid ? 'inventory' : 'inventory-2';
  const loser: LabService = winner === 'inventory' ? 'inventory-2' : 'inventory';
  await context.lab.disarm(loser);
  context.step(
    `${winner} (pid ${String(held.pid)}) owns the marker, uncommitted; ${loser} disarmed, so it will not hold`,
  );
  await context.waitForJournal(
    'the loser to start its claim on the same message',
    entry({ kind: 'claiming', consumer: DEMAND, messageId: held.messageId, notPid: held.pid }),
    20_000,
  );
  const waits = await context.waitUntil(
    'the loser to wait on the unique index',
    async () => {
      const status = await context.lab.status(loser);
      return status.lockWaits > 0 ? status.lockWaits : undefined;
    },
    10_000,
  );
  context.step(
    `pg_stat_activity: ${String(waits)} session(s) waiting on a lock: the loser's INSERT waits for the winner`,
  );
  await context.lab.release(winner, { then: winnerEnds });
  context.step(
    winnerEnds === 'continue'
      ? `released ${winner}: it commits`
      : `released ${winner} with a failure: it rolls back`,
  );
  const outcomes = await context.waitUntil('both attempts to settle', async () => {
    const all = (await context.journal()).filter(
      (candidate) =>
        candidate.consumer === DEMAND &&
        candidate.messageId === held.messageId &&
        (candidate.kind === 'handled' || candidate.kind === 'handed-back'),
    );
    return all.length >= 2 ? all : undefined;
  });
  await context.waitForOrder(orderId, ['confirmed']);
  return { outcomes, winnerPid: held.pid };
}

export const winnerCommits: Scenario = {
  name: 'winner-commits',
  title: 'The winner pauses, then commits: the loser waits, then reports a duplicate',
  summary:
    'Two processes claim the same message. The first holds its transaction open after its INSERT; the second blocks on the unique index. When the first commits, the second\u2019s INSERT returns no row: a duplicate, acknowledged without touching the tally.',
  async run(context) {
    const { outcomes, winnerPid } = await raceForTheMarker(context, 'continue');
    const winner = outcomes.find(
      (candidate) => candidate.pid === winnerPid && candidate.kind === 'handled',
    );
    const loser = outcomes.find(
      (candidate) => candidate.pid !== winnerPid && candidate.kind === 'handled',
    );
    context.expect('the winner applied the message', winner?.detail['outcome'] === 'applied');
    context.expect('the loser reported a duplicate', loser?.detail['outcome'] === 'duplicate');
  },
};

export const winnerRollsBack: Scenario = {
  name: 'winner-rolls-back',
  title: 'The winner pauses, then rolls back: the loser acquires the key and applies',
  summary:
    'The same race, but the first process fails while holding the marker. Its rollback removes the marker; the second process\u2019s INSERT then succeeds and it applies the message, once. The failed attempt is never acknowledged.',
  async run(context) {
    const { outcomes, winnerPid } = await raceForTheMarker(context, 'fail');
    const failed = outcomes.find((candidate) => candidate.pid === winnerPid);
    const loser = outcomes.find(
      (candidate) => candidate.pid !== winnerPid && candidate.kind === 'handled',
    );
    context.expect(
      'the first process rolled back and did not acknowledge',
      failed?.kind === 'handed-back',
      failed?.kind,
    );
    context.expect(
      'the second process applied the message',
      loser?.detail['outcome'] === 'applied',
    );
  },
};
