// The pattern's own timeline: the consumer commits, dies before it can
// acknowledge, and the message comes back. The marker committed with the
// tally, so the redelivery is a duplicate, acknowledged without a second effect.
import type { Scenario } from '../scenario.js';
import { crashTallyAt } from './support.js';

export const crashBeforeAck: Scenario = {
  name: 'crash-before-ack',
  title: 'Commit, crash before the acknowledgment, redelivery skipped as a duplicate',
  summary:
    'inventory-demand-v1 commits its tally and marker, then the process is killed (SIGKILL) before it acknowledges. The supervisor restarts it; the store delivers the message again; the claim finds the marker and the redelivery is a duplicate. The tally counts the order once.',
  async run(context) {
    const { redelivered, outcomes } = await crashTallyAt(context, {
      point: 'after-commit-before-ack',
      quantity: 2,
      where: 'after commit, before ack',
    });
    context.expect(
      'the first delivery committed before the crash',
      outcomes[0] === 'applied',
      outcomes.join(', '),
    );
    context.expect(
      'the redelivery after the restart was a duplicate',
      redelivered && outcomes[1] === 'duplicate',
      outcomes.join(', '),
    );
  },
};
