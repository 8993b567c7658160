// Commands to the Order aggregate. They come from the order API (a customer
// placing or cancelling); between services, requests travel as events instead
// (OrderPaymentRequested asks the payment service to authorize), so every
// hop is a fact in a stream that can be replayed and audited.
import { z } from 'zod';
import { defineCommand, type CommandOf } from '../events/message.js';
import { Email, OrderId, OrderLines, PaymentToken } from '../events/values.js';

/** `now` is passed in with the command: the decider never reads the clock. */
export const PlaceOrder = defineCommand(
  'PlaceOrder',
  1,
  z.object({
    orderId: OrderId,
    customerEmail: Email,
    items: OrderLines,
    paymentToken: PaymentToken,
    now: z.date(),
  }),
);

export const CancelOrder = defineCommand(
  'CancelOrder',
  1,
  z.object({ orderId: OrderId, now: z.date() }),
);

export const orderCommands = [PlaceOrder, CancelOrder] as const;

export type OrderCommand = CommandOf<(typeof orderCommands)[number]>;
