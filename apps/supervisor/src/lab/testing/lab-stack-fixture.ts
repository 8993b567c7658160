// The stack as the lab defines it, for the lab's defineStack tests: the
// template's input with the lab's settings and links beside it, applied the
// way lab-mode.ts applies them through the supervisor's extension point.
import { defineStack, type ProcessSpec, type StackInput } from '../../stack.js';
import type { FaultsSetting } from '../config.js';
import { labProcesses } from '../lab-stack.js';
import type { StackLinks } from '../links.js';

export interface LabStackFixtureInput extends StackInput {
  readonly faults?: FaultsSetting;
  readonly console?: boolean;
  readonly links?: StackLinks;
}

/**
 * @example
 * const specs = defineLabStack({ ...defaultInput, faults: { enabled: true, token } });
 */
export function defineLabStack(input: LabStackFixtureInput): ProcessSpec[] {
  const { faults = { enabled: false }, console = false, links, ...stack } = input;
  return defineStack({
    ...stack,
    extend: (specs, given) =>
      labProcesses(specs, { stack: given, ports: given.ports, faults, console, links }),
  });
}
