export {
  runScenario,
  DEFAULT_RUN_OPTIONS,
  type RunOptions,
  type ScenarioRun,
} from './run-scenario.js';
export { formatRun } from './report.js';
export { formatTimeline, type TimelineEntry } from './timeline/timeline.js';
export {
  JOURNAL_DATABASES,
  type JournalDatabase,
  type JournalMarks,
  type JournalRecord,
  type Journals,
} from './timeline/journals.js';
export { DEFAULT_JOURNAL_POLL_MS } from './timeline/tail-journals.js';
export { SCENARIOS, MISTAKES, findScenario, findMistake } from './scenarios/index.js';
export { postgresRestart } from './scenarios/infrastructure/postgres-restart.js';
export { providerDown, smtpDown } from './scenarios/infrastructure/process-down.js';
export { LOW_DB_TIMEOUTS } from './scenarios/infrastructure/low-db-timeouts.js';
export {
  reconnectServices,
  resetDatabaseDefaults,
  setDatabaseDefaults,
} from './scenarios/infrastructure/database-settings.js';
export type { Scenario, ScenarioContext, MistakeDemonstration } from './scenario.js';
export {
  LAB_SERVICES,
  LabStack,
  labToken,
  serviceDatabase,
  serviceUrl,
  type LabService,
} from './stack/lab-stack.js';
export { labClient, type LabClient } from './clients/lab-client.js';
export {
  labControlClient,
  labControlUrl,
  type LabControlClient,
} from './clients/lab-control-client.js';
export { outagesClient, type OutagesClient } from './clients/outages-client.js';
export type { Expectation, Expected, InvariantName, Verdict } from './verdict.js';
export { HttpError } from './clients/http.js';
export {
  openAdmin,
  serviceSessions,
  stackDatabaseNames,
  terminateBackends,
  type ServiceSession,
} from './scenarios/infrastructure/stack-sessions.js';
