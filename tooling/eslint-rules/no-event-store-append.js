// @ts-check
// A service changes the world and tells it in one transaction: its events go
// into the outbox with the business rows, and the relay appends them. An
// append made straight to the event store from anywhere else is a dual write
// (the rows commit, the append fails, or the other way round). Two places may
// append, and eslint.config.js names them: the outbox relay, and the order
// service's event-sourced stream, whose append is its one write.
import { calleeName } from './ast.js';

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'Append to the event store only from the outbox relay and the order stream.',
      url: 'docs/fitness-rules.md#no-event-store-append',
    },
    schema: [
      {
        type: 'object',
        properties: {
          methods: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ methods: ['appendToStream', 'appendToStreams'] }],
    messages: {
      appendOutsideAllowed:
        'Do not call {{method}}() here: enqueue the events in the outbox in the same transaction as your rows (enqueueEvents), and the relay appends them. See docs/fitness-rules.md.',
    },
  },
  create(context) {
    /** @type {{ methods?: string[] }} */
    const options = context.options[0] ?? {};
    const methods = new Set(options.methods ?? ['appendToStream', 'appendToStreams']);
    return {
      CallExpression(node) {
        if (node.callee.type !== 'MemberExpression') return;
        const method = calleeName(node.callee);
        if (method === undefined || !methods.has(method)) return;
        context.report({ node, messageId: 'appendOutsideAllowed', data: { method } });
      },
    };
  },
};
