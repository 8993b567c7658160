// @ts-check
// A consumer's name is half of its idempotency key (processed_message's
// consumer_name) and its subscription group. Renaming one makes it see every
// retained message as new; a change of meaning therefore gets a new version
// suffix, `-v2`, and the suffix must be there from the start. defineConsumer
// checks this at start-up; the rule says it where the name is written.
import { calleeName } from './ast.js';

/** The same shape defineConsumer accepts (packages/idempotency/src/consumer.ts). */
const CONSUMER_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*-v[1-9][0-9]*$/;
/** What the static end of a template such as `${prefix}-v1` must show. */
const VERSION_SUFFIX = /-v[1-9][0-9]*$/;

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'Consumer names end in a version suffix such as -v1.',
      url: 'docs/fitness-rules.md#consumer-name-has-version',
    },
    schema: [
      {
        type: 'object',
        properties: {
          registries: { type: 'array', items: { type: 'string' }, uniqueItems: true },
          definers: { type: 'array', items: { type: 'string' }, uniqueItems: true },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      unversioned:
        'Consumer name {{name}} has no version suffix: use lower-case words joined by "-" ending in "-v<number>", such as "inventory-reservation-v1". Renaming a consumer later makes it reprocess every retained message.',
    },
  },
  create(context) {
    /** @type {{ registries?: string[], definers?: string[] }} */
    const options = context.options[0] ?? {};
    const registries = new Set(options.registries ?? ['CONSUMERS']);
    const definers = new Set(options.definers ?? ['defineConsumer']);

    /** @param {import('estree').Node} value */
    const check = (value) => {
      if (value.type === 'Literal' && typeof value.value === 'string') {
        if (!CONSUMER_NAME.test(value.value)) report(value, JSON.stringify(value.value));
        return;
      }
      if (value.type !== 'TemplateLiteral') return;
      // Only the written end can be judged: `${name}-v1` passes, `${name}` is left to defineConsumer.
      const last = value.quasis[value.quasis.length - 1];
      const tail = last?.value.cooked ?? '';
      if (
        value.expressions.length === 0
          ? !CONSUMER_NAME.test(tail)
          : tail !== '' && !VERSION_SUFFIX.test(tail)
      ) {
        report(value, context.sourceCode.getText(value));
      }
    };
    /** @param {import('estree').Node} node @param {string} name */
    const report = (node, name) =>
      context.report({ node, messageId: 'unversioned', data: { name } });

    /** @param {import('estree').Node | null | undefined} node */
    const objectOf = (node) => {
      if (node?.type === 'ObjectExpression') return node;
      // Object.freeze({ ... }) and friends: the object is the first argument.
      if (node?.type === 'CallExpression' && node.arguments[0]?.type === 'ObjectExpression') {
        return node.arguments[0];
      }
      if (node?.type === 'TSAsExpression' || node?.type === 'TSSatisfiesExpression') {
        return objectOf(/** @type {any} */ (node).expression);
      }
      return undefined;
    };

    return {
      VariableDeclarator(node) {
        if (node.id.type !== 'Identifier' || !registries.has(node.id.name)) return;
        for (const property of objectOf(node.init)?.properties ?? []) {
          if (property.type === 'Property') check(property.value);
        }
      },
      CallExpression(node) {
        const name = calleeName(node.callee);
        if (name === undefined || !definers.has(name)) return;
        const definition = objectOf(node.arguments[0]);
        for (const property of definition?.properties ?? []) {
          if (property.type !== 'Property' || property.computed) continue;
          if (property.key.type === 'Identifier' && property.key.name === 'name')
            check(property.value);
        }
      },
    };
  },
};
