export { actionNotAllowedAt } from './fault-rules.js';
export { lastJournalId, readJournal, type JournalFilter } from './journal.repository.js';
export {
  ArmedFault,
  ArmFault,
  Disarmed,
  FaultMatch,
  Hold,
  HOLD_RELEASES,
  JOURNAL_KINDS,
  JournalDetail,
  JournalEntry,
  JournalPage,
  JournalQuery,
  LabStatus,
  MistakeMap,
  MistakeSwitch,
  Released,
  ReleaseHolds,
  type HoldRelease,
  type JournalKind,
} from './lab.schemas.js';
export {
  labView,
  type LabJournalTable,
  type LabMistakeTable,
  type LabTables,
} from './lab.tables.js';
export { LAB_MIGRATION_TABLE, migrateLab } from './migrate-lab.js';
export { labMigrations } from './migrations/index.js';
export { openFaultInjection, type FaultInjection } from './open-fault-injection.js';
export { ackBeforeCommit } from './ack-before-commit.js';
export { loadFaultsConfig, type FaultsConfig } from './config.js';
export {
  FAULT_ACTIONS,
  FAULT_POINTS,
  SERVICE_FAULT_POINTS,
  type FaultAction,
  type FaultFacts,
  type FaultPoint,
  type ServiceFaultPoint,
  type ServiceStep,
} from './fault-points.js';
export { MISTAKES, type Mistake } from './mistakes.js';
