export { alertDeliveries, alertEvents, alertRules } from './alerts';
export { apiKeys } from './api-keys';
export { deriveFailures } from './derive-failures';
export { dirtyRuns } from './dirty-runs';
export { prices } from './prices';
export { projects } from './projects';
export { rollupGrainEnum, runAgentRollups, runCategoryRollups, runRollups } from './run-rollups';
export { exitCategoryEnum, runs, verificationEnum } from './runs';
export { runVerdicts } from './run-verdicts';
export { spans } from './spans';
export { steps } from './steps';
export { traceRuns } from './trace-runs';
export { weeklyRollups } from './weekly-rollups';
export {
  patternRollups,
  patternTotals,
  patternWindowAnchors,
  patternWindows,
  runPatterns,
} from './loop-patterns';
export { ingestSpool } from './ingest-spool';
export { deletedRuns, deletedTraces } from './deleted-runs';
