// Commands to the Order aggregate. They come from the order API (a customer
// placing or cancelling) and from the order service's deadline timer (a
// deadline passed); between services, requests travel as events instead
// (OrderPaymentRequested asks the payment service to authorize), so every
// hop is a fact in a stream that can be replayed and audited.
import { z } from 'zod';
import { defineCommand, type CommandOf } from '../events/message.js';
import { OrderDeadlineName, OrderDeadlines } from '../events/order.events.js';
import { Email, OrderId, OrderLines, PaymentToken } from '../events/values.js';

/**
 * `now` is passed in with the command: the decider never reads the clock.
 * `deadlines` are computed by the caller from its configuration and the
 * placement time, so a retry of the same request decides the same event.
 */
export const PlaceOrder = defineCommand(
  'PlaceOrder',
  1,
  z.object({
    orderId: OrderId,
    customerEmail: Email,
    items: OrderLines,
    paymentToken: PaymentToken,
    deadlines: OrderDeadlines,
    now: z.date(),
  }),
);

export const CancelOrder = defineCommand(
  'CancelOrder',
  1,
  z.object({ orderId: OrderId, now: z.date() }),
);

/** A deadline's timer fired: `now` is the timer's time, never earlier than the deadline. */
export const ExpireOrder = defineCommand(
  'ExpireOrder',
  1,
  z.object({ orderId: OrderId, deadline: OrderDeadlineName, now: z.date() }),
);

export const orderCommands = [PlaceOrder, CancelOrder, ExpireOrder] as const;

export type OrderCommand = CommandOf<(typeof orderCommands)[number]>;
