export { LoopRun, LoopStep, startRun, stateHash } from './loop-run';
export type { RunOptions, Spend, StepOptions } from './loop-run';
export { describeTermination } from './termination';
export type { Termination } from './termination';
export { canonicalActionHash } from '../trajectory/canonical-hash';
