// Types for the plain-JavaScript plugin in index.js, for the specs written in TypeScript.
import type { ESLint, Rule } from 'eslint';

export type FitnessRuleName =
  | 'no-ack-outside-settle-delivery'
  | 'no-event-store-append'
  | 'no-network-in-process-once-work'
  | 'consumer-name-has-version';

declare const plugin: ESLint.Plugin & { rules: Record<FitnessRuleName, Rule.RuleModule> };
export default plugin;
