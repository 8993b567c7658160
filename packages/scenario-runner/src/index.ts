export {
  runScenario,
  DEFAULT_RUN_OPTIONS,
  type RunOptions,
  type ScenarioRun,
} from './run-scenario.js';
export { formatRun } from './report.js';
export { SCENARIOS, MISTAKES, findScenario, findMistake } from './scenarios/index.js';
export type { Scenario, ScenarioContext, MistakeDemonstration } from './scenario.js';
export { LAB_SERVICES, LabStack, labToken, type LabService } from './stack/lab-stack.js';
export type { Verdict } from './verdict.js';
