export { runSoak, type SoakOptions } from './run-soak.js';
export { faultInjectors, PROCESS_KINDS } from './faults/fault-kinds.js';
export type { FaultInjector, FaultRecord } from './faults/fault.js';
export { formatSoakReport, soakFailures, type SoakResult } from './report/soak-result.js';
export { SHORT_SOAK, DRAIN_TIMEOUT_MS } from './soak-args.js';
