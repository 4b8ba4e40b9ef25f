// What ingest reads from each span (the facts stored beside it) as derivation and the read
// models consume them: the contract between ingest/, derive/ and db/. Types only.
import type { ErrorClass, ProgressDirection, Verdict, VerdictSource } from './step';

export const SPAN_ROLES = ['step', 'cycle', 'agent', 'tool', 'llm', 'chain', 'other'] as const;
export type SpanRole = (typeof SPAN_ROLES)[number];

/** A value a span sent that Loopscope could not use as sent. */
export interface ValueProblem {
  /** The attribute (or field) it came in. */
  key: string;
  /** The value as sent, cut short. */
  value: string;
  /** What is wrong and what was stored instead. */
  problem: string;
}

/** A value problem as the run keeps it: with the span it came in. */
export interface RunValueProblem extends ValueProblem {
  spanId: string;
  spanName: string;
}

/** A tool call a model call asked for. */
export interface RequestedCall {
  name: string;
  /** The arguments as JSON text, when recorded. */
  args?: string;
  id?: string;
}

export interface SpanFacts {
  role: SpanRole;
  runId?: string;
  step?: number;
  /** LangGraph super-step: node spans with the same number form one step. */
  frameworkStep?: number;
  agent?: string;
  variant?: string;
  goal?: string;
  /** The conversation or session the run belongs to. */
  sessionId?: string;
  /** Labels, in the order sent, without duplicates. */
  tags?: string[];
  /** Prompt-like input, the goal's fallback on a root span. */
  input?: string;
  serviceName?: string;
  exitReason?: string;
  exitDetail?: string;
  finishReason?: string;
  exceptionType?: string;
  exceptionMessage?: string;
  /**
   * A reason the span names for stopping the run beyond an exception or finish reason: a tripped
   * guardrail, a tool that waits for approval or confirmation.
   */
  namedReason?: string;
  /** The tool calls this model call asked for. */
  requestedCalls?: RequestedCall[];
  /**
   * Tool calls this model call was told had failed (Google ADK records a failed tool's error only
   * in the next model request), by call id.
   */
  reportedFailures?: { id: string; errorClass: ErrorClass }[];
  verified?: boolean;
  verifiedUnits?: number;
  escalation?: string;
  maxSteps?: number;
  maxUsd?: number;
  wallClockMs?: number;
  progressDirection?: ProgressDirection;
  action?: string;
  actionArgs?: string;
  actionHash?: string;
  /** `loop.action.polling`: the action waits for the world. */
  polling?: boolean;
  stateHash?: string;
  result?: string;
  resultHash?: string;
  toolCallIds?: string[];
  progress?: number;
  verdict?: Verdict;
  verdictSource?: VerdictSource;
  verdictFields?: Record<string, boolean>;
  errorClass?: ErrorClass;
  contextTokens?: number;
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  model?: string;
  /** Values the span sent that could not be used as sent (out of range, not numbers, ...). */
  problems?: ValueProblem[];
}
