import { describe, expect, it } from 'vitest';
import { notWrittenByTheOrderService } from './order-stream-origin.js';

const ORDER = '3f1c2a9e-5b7d-4e8f-9a10-112233445566';

describe('notWrittenByTheOrderService', () => {
  it('given an OrderPlaced at revision 0 of its own stream, when checked, then it may be the order service’s', () => {
    expect(
      notWrittenByTheOrderService({
        type: 'OrderPlaced',
        orderId: ORDER,
        streamName: `order-${ORDER}`,
        revision: 0n,
      }),
    ).toBeUndefined();
  });

  it('given an OrderConfirmed later in its own stream, when checked, then it may be the order service’s', () => {
    expect(
      notWrittenByTheOrderService({
        type: 'OrderConfirmed',
        orderId: ORDER,
        streamName: `order-${ORDER}`,
        revision: 4n,
      }),
    ).toBeUndefined();
  });

  it.each(['OrderPaymentRequested', 'OrderConfirmed', 'OrderCancelled'])(
    'given %s as the first event of its stream, when checked, then the order was never placed',
    (type) => {
      expect(
        notWrittenByTheOrderService({
          type,
          orderId: ORDER,
          streamName: `order-${ORDER}`,
          revision: 0n,
        }),
      ).toBe(
        `${type} is the first event of order-${ORDER}: order ${ORDER} was never placed (the order service begins every order stream with OrderPlaced).`,
      );
    },
  );

  it('given an event of one order in another order’s stream, when checked, then the order service did not write it there', () => {
    expect(
      notWrittenByTheOrderService({
        type: 'OrderPaymentRequested',
        orderId: ORDER,
        streamName: 'order-another',
        revision: 3n,
      }),
    ).toBe(
      `OrderPaymentRequested of order ${ORDER} is in order-another, not in order-${ORDER}: the order service did not write it there.`,
    );
  });

  it('given an order event outside any order stream, when checked, then the order service did not write it there', () => {
    expect(
      notWrittenByTheOrderService({
        type: 'OrderConfirmed',
        orderId: ORDER,
        streamName: `payment-${ORDER}`,
        revision: 2n,
      }),
    ).toMatch(/is in payment-.*not in order-/);
  });
});
