export * from './api/delivery-outcome.api.js';
export * from './api/emails.api.js';
export * from './api/gateway.api.js';
export * from './api/inventory.api.js';
export * from './api/ledger.api.js';
// lab:begin
export * from './api/lineage.api.js';
// lab:end
export * from './api/notifications.api.js';
export * from './api/orders.api.js';
export * from './api/payments.api.js';
export * from './api/problem.api.js';
export {
  PROBLEMS,
  problemTypeOf,
  type DocumentedProblem,
  type ProblemCode,
} from './api/problem-catalogue.js';
export * from './commands/order.commands.js';
export * from './consumers.js';
export * from './events/handled-events.js';
export * from './events/inventory.events.js';
export {
  defineCommand,
  defineEvent,
  type CommandOf,
  type EventOf,
  type MessageDefinition,
} from './events/message.js';
export * from './events/notification.events.js';
export * from './events/order.events.js';
export * from './events/parse-event.js';
export * from './events/payment.events.js';
export * from './events/values.js';
export * from './order-stream-origin.js';
export * from './streams.js';
