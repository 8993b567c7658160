// @ts-check
// The work passed to processOnce runs inside the transaction that claims the
// message's marker. A call to a card processor or an SMTP server in there
// holds the transaction's locks for as long as the network takes, and a
// rollback cannot take back what the other side already did (a charge, an
// email). The payment and notification consumers therefore call out between
// two transactions: record the intent, call with an idempotency key or a
// Message-ID, then processOnce to record the answer (ADR 0012). This rule
// keeps it that way for the work written inline or in the same file.
import { calleeName, findVariable, isFunction, objectChainNames, rootIdentifier } from './ast.js';

const DEFAULTS = {
  /** Functions that run a unit of work: by the work's property name, or its argument index. */
  runners: { processOnce: 'work', attemptOnce: 'work', processBatchOnce: 'work' },
  /** Global network calls. */
  globals: ['fetch'],
  /** Modules whose every call is a network client. */
  modules: ['undici', 'nodemailer', 'node:http', 'node:https', 'http', 'https', 'node:net', 'net'],
  /** Methods that send over the network whatever their object (nodemailer's transport). */
  methods: ['sendMail'],
  /** Objects that are network clients: `deps.provider.authorize()`, `mailer.send()`. */
  clients: ['provider', 'mailer', 'transport'],
};

/**
 * @typedef {{
 *   runners: Record<string, string | number>;
 *   globals: string[];
 *   modules: string[];
 *   methods: string[];
 *   clients: string[];
 * }} Options
 */

/** @type {import('eslint').Rule.RuleModule} */
export default {
  meta: {
    type: 'problem',
    docs: {
      description:
        'No HTTP or SMTP client call inside the work that processOnce runs in its transaction.',
      url: 'docs/fitness-rules.md#no-network-in-process-once-work',
    },
    schema: [
      {
        type: 'object',
        properties: {
          runners: {
            type: 'object',
            additionalProperties: { anyOf: [{ type: 'string' }, { type: 'integer', minimum: 0 }] },
          },
          globals: { type: 'array', items: { type: 'string' } },
          modules: { type: 'array', items: { type: 'string' } },
          methods: { type: 'array', items: { type: 'string' } },
          clients: { type: 'array', items: { type: 'string' } },
        },
        additionalProperties: false,
      },
    ],
    messages: {
      networkInWork:
        '{{call}}() is a network call inside the work of {{runner}}(), which runs in the marker transaction. Call out before it (record the intent, call with an idempotency key), then record the answer in the work. See docs/fitness-rules.md.',
    },
  },
  create(context) {
    /** @type {Options} */
    const options = { ...DEFAULTS, ...context.options[0] };
    const runnerOf = new Map(Object.entries(options.runners));
    /** The work functions found in this file, with the runner each is passed to. */
    /** @type {Map<import('estree').Node, string>} */
    const works = new Map();
    /** Network calls, judged once the whole file is read (a work may be declared after its use). */
    /** @type {{ node: import('estree').CallExpression, call: string, ancestors: import('estree').Node[] }[]} */
    const networkCalls = [];

    /**
     * @param {import('estree').Node | undefined} argument
     * @param {import('estree').Node} at
     * @param {string} runner
     */
    const addWork = (argument, at, runner) => {
      if (argument === undefined) return;
      if (isFunction(argument)) {
        works.set(argument, runner);
        return;
      }
      if (argument.type !== 'Identifier') return;
      const variable = findVariable(context.sourceCode.getScope(at), argument.name);
      for (const def of variable?.defs ?? []) {
        if (def.node.type === 'FunctionDeclaration') works.set(def.node, runner);
        if (def.node.type === 'VariableDeclarator' && def.node.init && isFunction(def.node.init)) {
          works.set(def.node.init, runner);
        }
      }
    };

    /** @param {import('estree').CallExpression} node */
    const collectWork = (node) => {
      const runner = calleeName(node.callee);
      const where = runner === undefined ? undefined : runnerOf.get(runner);
      if (runner === undefined || where === undefined) return;
      if (typeof where === 'number') {
        const argument = node.arguments[where];
        if (argument?.type !== 'SpreadElement') addWork(argument, node, runner);
        return;
      }
      const [first] = node.arguments;
      if (first?.type !== 'ObjectExpression') return;
      for (const property of first.properties) {
        if (property.type !== 'Property' || property.computed) continue;
        const key = property.key.type === 'Identifier' ? property.key.name : undefined;
        if (key === where) addWork(property.value, node, runner);
      }
    };

    /**
     * The name to report when this call reaches the network, else undefined.
     *
     * @param {import('estree').CallExpression} node
     * @returns {string | undefined}
     */
    const networkCall = (node) => {
      const { callee } = node;
      const name = calleeName(callee);
      const chain = objectChainNames(callee);
      const written = [...chain, name].join('.');
      if (
        name !== undefined &&
        callee.type === 'MemberExpression' &&
        options.methods.includes(name)
      ) {
        return written;
      }
      if (chain.some((part) => options.clients.includes(part))) return written;
      const root = rootIdentifier(callee);
      if (root === undefined) return undefined;
      const variable = findVariable(context.sourceCode.getScope(node), root.name);
      const imported = variable?.defs.find((def) => def.type === 'ImportBinding');
      if (imported !== undefined) {
        const source =
          imported.parent?.type === 'ImportDeclaration' ? imported.parent.source.value : undefined;
        return typeof source === 'string' && options.modules.includes(source) ? written : undefined;
      }
      const declaredHere = variable !== undefined && variable.defs.length > 0;
      return callee.type === 'Identifier' && !declaredHere && options.globals.includes(root.name)
        ? root.name
        : undefined;
    };

    return {
      CallExpression(node) {
        collectWork(node);
        const call = networkCall(node);
        if (call !== undefined) {
          networkCalls.push({ node, call, ancestors: context.sourceCode.getAncestors(node) });
        }
      },
      'Program:exit'() {
        for (const { node, call, ancestors } of networkCalls) {
          const work = ancestors.find((ancestor) => works.has(ancestor));
          if (work === undefined) continue;
          context.report({
            node,
            messageId: 'networkInWork',
            data: { call, runner: works.get(work) ?? '' },
          });
        }
      },
    };
  },
};
