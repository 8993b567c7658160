// Given/When/Then for the order's deciders, in the shape of Emmett's
// DeciderSpecification: given the events already in the stream, when a
// command, an event or a saga input arrives, then these events (or this refusal).
import type { OrderEvent } from '@effectively-once/contracts';
import { expect } from 'vitest';
import {
  decide,
  type DeadlineRefusalCode,
  type OrderCommand,
  type OrderRefusalCode,
} from '../order.decide.js';
import { evolve, evolveAll } from '../order.evolve.js';
import { decideOrderSaga, type OrderSagaInput } from '../order-saga.decide.js';
import type { OrderState } from '../order.state.js';

export interface OrderSpecification {
  when(command: OrderCommand): {
    then(expected: readonly OrderEvent[]): void;
    thenRefused(code: OrderRefusalCode | DeadlineRefusalCode): void;
  };
  whenSaga(input: OrderSagaInput, now: Date): { then(expected: readonly OrderEvent[]): void };
  whenEvent(event: OrderEvent): { thenState(expected: Partial<OrderState>): void };
}

/**
 * @example
 * given(orderPlaced(id)).when({ type: 'CancelOrder', data: { orderId: id, now } }).then([...]);
 */
export function given(...history: readonly OrderEvent[]): OrderSpecification {
  const state = evolveAll(history);
  return {
    when: (command) => ({
      then: (expected) => {
        expect(decide(command, state)).toEqual({ outcome: 'accepted', events: expected });
      },
      thenRefused: (code) => {
        expect(decide(command, state)).toMatchObject({ outcome: 'refused', code });
      },
    }),
    whenSaga: (input, now) => ({
      then: (expected) => {
        expect(decideOrderSaga(input, state, now)).toEqual(expected);
      },
    }),
    whenEvent: (event) => ({
      thenState: (expected) => {
        expect(evolve(state, event)).toMatchObject(expected);
      },
    }),
  };
}
