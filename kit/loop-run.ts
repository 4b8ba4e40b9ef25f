// Helpers that put the loop conventions (docs/conventions.md) on ordinary OpenTelemetry spans. They
// use only @opentelemetry/api, so they work with whatever SDK and exporter the harness has.
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, TimeInput, Tracer } from '@opentelemetry/api';
import type { DeriveOptions, RunFlags } from '../trajectory/derive-run';
import type { GuardVerdict } from '../trajectory/guard';
import type { TokenUsage } from './genai';
import { LocalTrajectory } from './local-guard';
import type { Limits, StopRules, Totals } from './local-guard';
import { LoopStep } from './loop-step';
import type { StepHost } from './loop-step';
import { describeTermination } from './termination';
import type { Termination } from './termination';

export interface RunOptions {
  goal: string;
  agent?: string;
  /** A configuration label, for comparing variants of one agent. */
  variant?: string;
  /** Groups spans of several traces into one run; the trace id is the run id otherwise. */
  runId?: string;
  /** The conversation or session the run belongs to (`loop.session.id`): its runs read together. */
  sessionId?: string;
  /** Labels to filter and search by (`loop.tags`). */
  tags?: readonly string[];
  limits?: Limits;
  /** Which way `loop.progress` improves (default down: failing tests, open fields, ...). */
  progressDirection?: 'down' | 'up';
  /** The world-state fields the goal depends on; `step.observe({ state })` hashes only these. */
  stateFields?: readonly string[];
  /** Milliseconds since the epoch for every span the kit starts or ends; the SDK's clock if unset. */
  clock?: () => number;
  /** Prices a model call for the run's own budget checks (Loopscope prices from its own table). */
  price?: (model: string, usage: TokenUsage) => number | null;
  /** Thresholds of the local guard; the server's defaults (stall window 5, circuit 3) otherwise. */
  signals?: Partial<DeriveOptions>;
  startTime?: TimeInput;
  parent?: Context;
}

export interface StepOptions {
  /** The action, when known before the step starts; `step.act()` names it later. */
  action?: string;
  args?: unknown;
  startTime?: TimeInput;
}

export interface EndOptions {
  /** The outcome as a check outside the agent found it (`loop.verified`). */
  verified?: boolean;
  verifiedUnits?: number;
  endTime?: TimeInput;
}

export class LoopRun {
  readonly span: Span;
  readonly limits: Limits;
  private readonly context: Context;
  private readonly trajectory: LocalTrajectory;
  private readonly startMs: number;
  private readonly open = new Set<LoopStep>();
  private readonly steps: LoopStep[] = [];
  private ended = false;
  private readonly host: StepHost;
  /**
   * The budgets and progress direction, on the run span and on every step span too: the run
   * span is exported only when the run ends, and the guard must read them while it runs.
   */
  private readonly runningFacts: Attributes = {};

  constructor(
    private readonly tracer: Tracer,
    private readonly options: RunOptions,
  ) {
    this.limits = options.limits ?? {};
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      'loop.goal': options.goal,
    };
    if (options.agent) {
      attributes['loop.agent'] = options.agent;
      attributes['gen_ai.agent.name'] = options.agent;
    }
    if (options.variant) attributes['loop.variant'] = options.variant;
    if (options.runId) attributes['loop.run.id'] = options.runId;
    if (options.sessionId) attributes['loop.session.id'] = options.sessionId;
    if (options.tags?.length) attributes['loop.tags'] = [...options.tags];
    if (this.limits.maxSteps !== undefined)
      this.runningFacts['loop.limits.max_steps'] = this.limits.maxSteps;
    if (this.limits.maxUsd !== undefined)
      this.runningFacts['loop.limits.max_usd'] = this.limits.maxUsd;
    if (this.limits.wallClockMs !== undefined)
      this.runningFacts['loop.limits.wall_clock_ms'] = this.limits.wallClockMs;
    if (options.progressDirection)
      this.runningFacts['loop.progress.direction'] = options.progressDirection;
    Object.assign(attributes, this.runningFacts);
    const parent = options.parent ?? context.active();
    const startTime = options.startTime ?? options.clock?.();
    this.startMs = typeof startTime === 'number' ? startTime : Date.now();
    this.span = tracer.startSpan(
      `invoke_agent ${options.agent ?? 'agent'}`,
      { kind: SpanKind.INTERNAL, attributes, startTime },
      parent,
    );
    this.context = trace.setSpan(parent, this.span);
    this.trajectory = new LocalTrajectory(options.progressDirection ?? 'down', options.signals);
    this.host = {
      tracer,
      stateFields: options.stateFields,
      now: () => options.clock?.(),
      price: (model, usage) => options.price?.(model, usage) ?? null,
      stepEnded: (step) => this.open.delete(step),
    };
  }

  /** The run id Loopscope files the run under: `runId`, else the trace id. */
  get id(): string {
    return this.options.runId ?? this.span.spanContext().traceId;
  }

  get stepCount(): number {
    return this.steps.length;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** Steps, tokens, spend and time so far, for the harness's own budgets. */
  totals(): Totals {
    const totals: Totals = {
      steps: this.steps.length,
      inputTokens: 0,
      outputTokens: 0,
      cacheReadTokens: 0,
      costUsd: 0,
      elapsedMs: (this.options.clock?.() ?? Date.now()) - this.startMs,
    };
    for (const step of this.steps) {
      totals.inputTokens += step.usage.inputTokens;
      totals.outputTokens += step.usage.outputTokens;
      totals.cacheReadTokens += step.usage.cacheReadTokens;
      totals.costUsd += step.costUsd;
    }
    return totals;
  }

  /** Starts step n+1: one iteration of perceive, reason, act, verify. */
  step(options: StepOptions = {}): LoopStep {
    const index = this.steps.length + 1;
    const attributes: Attributes = { 'loop.step': index, ...this.runningFacts };
    if (this.options.runId) attributes['loop.run.id'] = this.options.runId;
    const span = this.tracer.startSpan(
      `step ${index}`,
      { attributes, startTime: options.startTime ?? this.host.now() },
      this.context,
    );
    const step = new LoopStep(span, index, this.host, this.trajectory.add(index), this.context);
    if (options.action !== undefined) step.act(options.action, options.args);
    this.steps.push(step);
    this.open.add(step);
    return step;
  }

  /** A child span of the run (an LLM call, a tool call) under the given step, or the run. */
  child(
    name: string,
    attributes: Attributes,
    options: { step?: LoopStep; startTime?: TimeInput } = {},
  ): Span {
    const parent = options.step ? trace.setSpan(this.context, options.step.span) : this.context;
    return this.tracer.startSpan(
      name,
      { attributes, startTime: options.startTime ?? this.host.now() },
      parent,
    );
  }

  /** The first repeat, revisit, stall and tool circuit so far, by the server's own rules. */
  flags(): RunFlags {
    return this.trajectory.flags();
  }

  /** The decision `POST /api/v1/guard` would give for the run so far, computed here. */
  guard(): GuardVerdict {
    return this.trajectory.guard(this.limits, this.totals());
  }

  /**
   * Whether to stop now, and why: a declared limit reached, a repeat, a cycle or an open tool
   * circuit (and a stall, if asked). Null to go on. End the run with what it returns.
   */
  check(rules?: StopRules): Termination | null {
    return this.trajectory.check(this.limits, this.totals(), rules);
  }

  /** Ends the run with its reason; `verified` only from a check outside the agent. */
  end(termination: Termination, options: EndOptions = {}): void {
    if (this.ended) return;
    this.ended = true;
    const endTime = options.endTime ?? this.host.now();
    for (const step of [...this.open]) step.end(endTime);
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
    this.span.end(endTime);
  }
}

export function startRun(tracer: Tracer, options: RunOptions): LoopRun {
  return new LoopRun(tracer, options);
}
