export { apiKeys } from './api-keys';
export { dirtyRuns } from './dirty-runs';
export { prices } from './prices';
export { projects } from './projects';
export { exitCategoryEnum, runs, verificationEnum } from './runs';
export { spans } from './spans';
export { steps } from './steps';
export { traceRuns } from './trace-runs';
export { weeklyRollups } from './weekly-rollups';
