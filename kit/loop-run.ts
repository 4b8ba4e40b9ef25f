// Helpers that put the loop conventions (CONVENTIONS.md) on ordinary OpenTelemetry spans. They
// use only @opentelemetry/api, so they work with whatever SDK and exporter the harness has.
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, TimeInput, Tracer } from '@opentelemetry/api';
import { canonicalActionHash, jcs, normalizeArgs, sha256Hex } from '../trajectory/canonical-hash';
import type { ErrorClass, Verdict, VerdictSource } from '../trajectory/step';
import { describeTermination } from './termination';
import type { Termination } from './termination';

export interface RunOptions {
  goal: string;
  agent?: string;
  variant?: string;
  /** Groups spans of several traces into one run; the trace id is the run id otherwise. */
  runId?: string;
  limits?: { maxSteps?: number; maxUsd?: number; wallClockMs?: number };
  progressDirection?: 'down' | 'up';
  startTime?: TimeInput;
  parent?: Context;
}

export interface StepOptions {
  action: string;
  args?: unknown;
  startTime?: TimeInput;
}

export interface Spend {
  inputTokens?: number;
  outputTokens?: number;
  cacheReadTokens?: number;
  model?: string;
  costUsd?: number;
}

/** The fingerprint of the world state the goal depends on: only the fields named count. */
export function stateHash(
  state: Record<string, unknown>,
  fields: readonly string[] = Object.keys(state),
): string {
  const picked: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const field of [...fields].sort()) picked[field] = state[field] ?? null;
  return sha256Hex(`state\n${jcs(normalizeArgs(picked))}`);
}

export class LoopStep {
  constructor(
    readonly span: Span,
    readonly index: number,
  ) {}

  /** What the step observed after acting: the state, the tool's output, the progress metric. */
  observe(observation: {
    state?: Record<string, unknown>;
    stateFields?: readonly string[];
    stateHash?: string;
    result?: unknown;
    progress?: number;
    contextTokens?: number;
  }): this {
    const hash =
      observation.stateHash ??
      (observation.state ? stateHash(observation.state, observation.stateFields) : undefined);
    if (hash !== undefined) this.span.setAttribute('loop.state.hash', hash);
    if (observation.result !== undefined) {
      this.span.setAttribute(
        'gen_ai.tool.call.result',
        typeof observation.result === 'string'
          ? observation.result
          : JSON.stringify(observation.result),
      );
    }
    if (observation.progress !== undefined)
      this.span.setAttribute('loop.progress', observation.progress);
    if (observation.contextTokens !== undefined)
      this.span.setAttribute('loop.context_tokens', observation.contextTokens);
    return this;
  }

  verify(
    verdict: Verdict,
    options: { source?: VerdictSource; fields?: Record<string, boolean> } = {},
  ): this {
    this.span.setAttribute('loop.verdict', verdict);
    this.span.setAttribute('loop.verdict.source', options.source ?? 'self');
    if (options.fields)
      this.span.setAttribute('loop.verdict.fields', JSON.stringify(options.fields));
    return this;
  }

  spend(spend: Spend): this {
    const attributes: Attributes = {};
    if (spend.inputTokens !== undefined)
      attributes['gen_ai.usage.input_tokens'] = spend.inputTokens;
    if (spend.outputTokens !== undefined)
      attributes['gen_ai.usage.output_tokens'] = spend.outputTokens;
    if (spend.cacheReadTokens !== undefined)
      attributes['gen_ai.usage.cache_read.input_tokens'] = spend.cacheReadTokens;
    if (spend.model !== undefined) attributes['gen_ai.request.model'] = spend.model;
    if (spend.costUsd !== undefined) attributes['loop.cost_usd'] = spend.costUsd;
    this.span.setAttributes(attributes);
    return this;
  }

  fail(errorClass: ErrorClass, message: string): this {
    this.span.setAttribute('loop.error.class', errorClass);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
    return this;
  }

  end(endTime?: TimeInput): void {
    this.span.end(endTime);
  }
}

export class LoopRun {
  private steps = 0;
  readonly span: Span;
  private readonly context: Context;

  constructor(
    private readonly tracer: Tracer,
    options: RunOptions,
  ) {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'loop.goal': options.goal,
    };
    if (options.agent) attributes['loop.agent'] = options.agent;
    if (options.variant) attributes['loop.variant'] = options.variant;
    if (options.runId) attributes['loop.run.id'] = options.runId;
    if (options.limits?.maxSteps !== undefined)
      attributes['loop.limits.max_steps'] = options.limits.maxSteps;
    if (options.limits?.maxUsd !== undefined)
      attributes['loop.limits.max_usd'] = options.limits.maxUsd;
    if (options.limits?.wallClockMs !== undefined)
      attributes['loop.limits.wall_clock_ms'] = options.limits.wallClockMs;
    if (options.progressDirection)
      attributes['loop.progress.direction'] = options.progressDirection;
    const parent = options.parent ?? context.active();
    this.span = tracer.startSpan(
      `invoke_agent ${options.agent ?? 'agent'}`,
      { attributes, startTime: options.startTime },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
  }

  get stepCount(): number {
    return this.steps;
  }

  /** Starts step n+1: one iteration of perceive, reason, act, verify. */
  step(options: StepOptions): LoopStep {
    const index = ++this.steps;
    const args =
      options.args === undefined
        ? undefined
        : typeof options.args === 'string'
          ? options.args
          : JSON.stringify(options.args);
    const attributes: Attributes = {
      'loop.step': index,
      'loop.action': options.action,
      'loop.action.hash': canonicalActionHash(options.action, args ?? null),
    };
    if (args !== undefined) attributes['loop.action.args'] = args;
    const span = this.tracer.startSpan(
      `step ${index} ${options.action}`,
      { attributes, startTime: options.startTime },
      this.context,
    );
    return new LoopStep(span, index);
  }

  /** A child span of the run (an LLM call, a tool call) under the given step, or the run. */
  child(
    name: string,
    attributes: Attributes,
    options: { step?: LoopStep; startTime?: TimeInput } = {},
  ): Span {
    const parent = options.step ? trace.setSpan(this.context, options.step.span) : this.context;
    return this.tracer.startSpan(name, { attributes, startTime: options.startTime }, parent);
  }

  /** Ends the run with its reason; `verified` only from a check outside the agent. */
  end(
    termination: Termination,
    options: { verified?: boolean; verifiedUnits?: number; endTime?: TimeInput } = {},
  ): void {
    const { reason, detail } = describeTermination(termination);
    this.span.setAttribute('loop.exit.reason', reason);
    this.span.setAttribute('loop.exit.detail', detail);
    if (termination.kind === 'escalated')
      this.span.setAttribute('loop.escalation', termination.handOver);
    if (options.verified !== undefined) this.span.setAttribute('loop.verified', options.verified);
    if (options.verifiedUnits !== undefined)
      this.span.setAttribute('loop.verified_units', options.verifiedUnits);
    if (termination.kind === 'hard_error')
      this.span.setStatus({ code: SpanStatusCode.ERROR, message: termination.error });
    this.span.end(options.endTime);
  }
}

export function startRun(tracer: Tracer, options: RunOptions): LoopRun {
  return new LoopRun(tracer, options);
}
