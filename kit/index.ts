// The instrumentation kit: loop conventions on OpenTelemetry spans, with @opentelemetry/api only.
export { LoopRun, startRun } from './loop-run';
export type { EndOptions, RunOptions, StepOptions } from './loop-run';
export { LoopStep, ToolError } from './loop-step';
export type { Observation, Spend } from './loop-step';
export { stateHash } from './state-hash';
export { llmAttributes, toolAttributes, usageAttributes } from './genai';
export type { LlmCall, TokenUsage, ToolCall, ToolFailure } from './genai';
export { DEFAULT_STOP_RULES } from './local-guard';
export type { Limits, StopRules, Totals } from './local-guard';
export { remoteGuard } from './remote-guard';
export type { RemoteGuard, RemoteGuardOptions } from './remote-guard';
export { describeTermination, terminationFromGuard } from './termination';
export type { NoProgressSignal, Termination, TerminationKind } from './termination';
export { canonicalActionHash } from '../trajectory/canonical-hash';
export type { GuardVerdict } from '../trajectory/guard';
export type { RunFlags } from '../trajectory/derive-run';
export type { ErrorClass, Verdict, VerdictSource } from '../trajectory/step';
