// Which stack a scenario runs on. Most scenarios share one lab stack (the
// running one, or one the runner starts). Two kinds never do, because a shared
// stack would make them fail or disturb the others:
// - a scenario written for settings of its own (`stackEnv`: short saga
//   deadlines, say) needs a stack started with them; on a stack with the
//   defaults its waits run out (provider-outage-deadline waits 30 s for a
//   payment deadline that is two minutes away);
// - a scenario that takes infrastructure away (`infrastructure`) gets its own
//   stack whenever the run holds others, so they never run on a stack it broke.
import type { Scenario } from '@effectively-once/scenario-runner';

export type StackForScenario =
  | { readonly kind: 'shared' }
  | {
      readonly kind: 'own';
      /** Settings the stack starts with, on top of the runner's environment. */
      readonly env: Readonly<Record<string, string>>;
      /** Why it gets a stack of its own, for the runner's output. */
      readonly why: string;
    };

/**
 * @example
 * stackForScenario(providerOutageDeadline, { runs: 45 });
 * // { kind: 'own', env: { ORDER_PAYMENT_DEADLINE_MS: '4000', … }, why: 'it is written for …' }
 */
export function stackForScenario(
  scenario: Pick<Scenario, 'stackEnv' | 'infrastructure'>,
  input: { readonly runs: number },
): StackForScenario {
  const env = scenario.stackEnv;
  if (env !== undefined) {
    const settings = Object.entries(env)
      .map(([name, value]) => `${name}=${value}`)
      .join(' ');
    return { kind: 'own', env, why: `it is written for ${settings}` };
  }
  if (scenario.infrastructure === true && input.runs > 1) {
    return {
      kind: 'own',
      env: {},
      why: 'it takes infrastructure away, so the other scenarios never run on a stack it broke',
    };
  }
  return { kind: 'shared' };
}
