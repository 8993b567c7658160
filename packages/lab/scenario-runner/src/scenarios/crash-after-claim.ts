// A crash inside the transaction, after the marker INSERT and before the
// business change: PostgreSQL rolls both back with the dead connection, so
// the redelivery claims the message again and applies it, once.
import type { Scenario } from '../scenario.js';
import { crashTallyAt } from './support.js';

export const crashAfterClaim: Scenario = {
  name: 'crash-after-claim',
  title: 'Crash after the claim, before the business change',
  summary:
    'inventory-demand-v1 inserts its marker and the process is killed before the tally changes. The open transaction dies with the connection: no marker, no tally. The redelivery claims the message again and applies it once.',
  async run(context) {
    const { redelivered, outcomes } = await crashTallyAt(context, {
      point: 'after-claim',
      quantity: 3,
      where: 'right after the claim',
    });
    context.expect(
      'the redelivery applied the message (the crashed attempt left nothing behind)',
      redelivered && outcomes.at(-1) === 'applied',
      outcomes.join(', ') || 'no settlement',
    );
  },
};
