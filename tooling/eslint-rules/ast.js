// @ts-check
// Small readers of the ESTree nodes the fitness rules look at. The rules are
// plain JavaScript so that eslint.config.js loads them without a build step.

/**
 * The name a call goes by: `ack` for `ack()`, `delivery.ack()`,
 * `delivery?.ack()` and `delivery['ack']()`; undefined when it has none.
 *
 * @param {import('estree').Node} callee
 * @returns {string | undefined}
 */
export function calleeName(callee) {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type !== 'MemberExpression') return undefined;
  return propertyName(callee);
}

/**
 * @param {import('estree').MemberExpression} member
 * @returns {string | undefined}
 */
export function propertyName(member) {
  const { property } = member;
  if (!member.computed && property.type === 'Identifier') return property.name;
  if (property.type === 'Literal' && typeof property.value === 'string') return property.value;
  return undefined;
}

/**
 * Every name along a callee's object chain, outermost first:
 * `deps.provider.authorize` gives `['deps', 'provider']`, `this.mailer.send`
 * gives `['mailer']`.
 *
 * @param {import('estree').Node} callee
 * @returns {string[]}
 */
export function objectChainNames(callee) {
  /** @type {string[]} */
  const names = [];
  let node = callee.type === 'MemberExpression' ? callee.object : undefined;
  while (node !== undefined) {
    if (node.type === 'Identifier') {
      names.unshift(node.name);
      break;
    }
    if (node.type !== 'MemberExpression') break;
    const name = propertyName(node);
    if (name !== undefined) names.unshift(name);
    node = node.object;
  }
  return names;
}

/**
 * The identifier a callee starts from: `http` in `http.request()`, `request`
 * in `request()`.
 *
 * @param {import('estree').Node} callee
 * @returns {import('estree').Identifier | undefined}
 */
export function rootIdentifier(callee) {
  let node = callee;
  while (node.type === 'MemberExpression') node = node.object;
  return node.type === 'Identifier' ? node : undefined;
}

/**
 * The name a function is known by where it is defined: its own name, the
 * variable it is assigned to, or the method or property key.
 *
 * @param {import('estree').Node & { parent?: import('estree').Node }} fn
 * @returns {string | undefined}
 */
export function functionName(fn) {
  if (
    (fn.type === 'FunctionDeclaration' || fn.type === 'FunctionExpression') &&
    fn.id !== null &&
    fn.id !== undefined
  ) {
    return fn.id.name;
  }
  const { parent } = fn;
  if (parent === undefined) return undefined;
  if (parent.type === 'VariableDeclarator' && parent.id.type === 'Identifier') {
    return parent.id.name;
  }
  if ((parent.type === 'Property' || parent.type === 'MethodDefinition') && !parent.computed) {
    return parent.key.type === 'Identifier' ? parent.key.name : undefined;
  }
  return undefined;
}

/** @param {import('estree').Node} node */
export const isFunction = (node) =>
  node.type === 'FunctionDeclaration' ||
  node.type === 'FunctionExpression' ||
  node.type === 'ArrowFunctionExpression';

/**
 * The variable a name refers to at `scope`, looking outward.
 *
 * @param {import('eslint').Scope.Scope | null} scope
 * @param {string} name
 * @returns {import('eslint').Scope.Variable | undefined}
 */
export function findVariable(scope, name) {
  for (let current = scope; current !== null; current = current.upper) {
    const variable = current.set.get(name);
    if (variable !== undefined) return variable;
  }
  return undefined;
}
