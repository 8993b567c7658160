// @ts-check
// The acknowledgment rule lives in one function, settleDelivery: acknowledge
// only after processing resolved (COMMIT returned), never on a failure. A
// second `ack()` elsewhere is a second acknowledgment rule, and the one that
// acknowledges before COMMIT loses a message on a crash.
import { calleeName, functionName, isFunction } from './ast.js';

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'Acknowledge a delivery only through settleDelivery.',
      url: 'docs/fitness-rules.md#no-ack-outside-settle-delivery',
    },
    schema: [
      {
        type: 'object',
        properties: {
          allowIn: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        },
        additionalProperties: false,
      },
    ],
    defaultOptions: [{ allowIn: ['settleDelivery'] }],
    messages: {
      ackOutsideSettle:
        'Acknowledge through settleDelivery(delivery, () => processOnce(...)), not by calling ack() here: it acknowledges only after COMMIT and never on a failure.',
    },
  },
  create(context) {
    /** @type {{ allowIn?: string[] }} */
    const options = context.options[0] ?? {};
    const allowIn = new Set(options.allowIn ?? ['settleDelivery']);
    return {
      CallExpression(node) {
        if (calleeName(node.callee) !== 'ack') return;
        const inside = context.sourceCode
          .getAncestors(node)
          .filter(isFunction)
          .map((fn) => functionName(fn));
        if (inside.some((name) => name !== undefined && allowIn.has(name))) return;
        context.report({ node, messageId: 'ackOutsideSettle' });
      },
    };
  },
};
