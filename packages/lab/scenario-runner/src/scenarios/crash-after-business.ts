// A crash after the business change, before COMMIT: again nothing survives,
// because the change and the marker are one transaction.
import type { Scenario } from '../scenario.js';
import { crashTallyAt } from './support.js';

export const crashAfterBusiness: Scenario = {
  name: 'crash-after-business',
  title: 'Crash after the business change, before the commit',
  summary:
    'inventory-demand-v1 has claimed the message and changed the tally when the process is killed, before COMMIT. Both roll back together; the redelivery applies the message once.',
  async run(context) {
    const { redelivered, outcomes } = await crashTallyAt(context, {
      point: 'after-business',
      quantity: 4,
      where: 'after the business change, before commit',
    });
    context.expect(
      'the redelivery applied the message once',
      redelivered && outcomes.filter((outcome) => outcome === 'applied').length === 1,
      outcomes.join(', ') || 'no settlement',
    );
  },
};
