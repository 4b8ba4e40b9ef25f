// One iteration of the loop (perceive, reason, act, verify) as a span with `loop.step`, and the
// LLM and tool calls inside it as GenAI child spans.
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Attributes, Context, Span, TimeInput, Tracer } from '@opentelemetry/api';
import { canonicalActionHash } from '../trajectory/canonical-hash';
import { canonicalResultHash } from '../trajectory/result-hash';
import type { ErrorClass, StepInput, Verdict, VerdictSource } from '../trajectory/step';
import { llmAttributes, toText, toolAttributes, usageAttributes } from './genai';
import type { LlmCall, TokenUsage, ToolCall, ToolFailure } from './genai';
import { stateHash } from './state-hash';

export interface Spend extends TokenUsage {
  model?: string;
  costUsd?: number;
}

export interface Observation {
  /** The world after the step; only `stateFields` (or the run's) go into the state hash. */
  state?: Record<string, unknown>;
  stateFields?: readonly string[];
  /** A state hash computed elsewhere, instead of `state`. */
  stateHash?: string;
  /** What the tool answered (`gen_ai.tool.call.result`). */
  result?: unknown;
  /** The progress metric: failing tests, unresolved fields, ... (`loop.progress`). */
  progress?: number;
  contextTokens?: number;
}

/** A tool failure that names its class; `callTool` records it on the tool span and the step. */
export class ToolError extends Error {
  constructor(
    message: string,
    readonly errorClass: ErrorClass,
    readonly type?: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** What a step needs from its run. */
export interface StepHost {
  readonly tracer: Tracer;
  readonly stateFields: readonly string[] | undefined;
  now(): number | undefined;
  price(model: string, usage: TokenUsage): number | null;
  stepEnded(step: LoopStep): void;
}

export class LoopStep {
  private ended = false;
  /** Cost of the model calls recorded inside the step (explicit or priced by the run). */
  private callsUsd = 0;
  private explicitUsd: number | undefined;
  private readonly context: Context;
  readonly usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0 };

  constructor(
    readonly span: Span,
    readonly index: number,
    private readonly host: StepHost,
    private readonly record: StepInput,
    parent: Context,
  ) {
    this.context = trace.setSpan(parent, span);
  }

  get costUsd(): number {
    return this.explicitUsd ?? this.callsUsd;
  }

  /** Names the action when it is known only after the model answered. */
  act(action: string, args?: unknown): this {
    const text = args === undefined ? undefined : toText(args);
    const hash = canonicalActionHash(action, text ?? null);
    this.span.setAttribute('loop.action', action);
    this.span.setAttribute('loop.action.hash', hash);
    if (text !== undefined) this.span.setAttribute('loop.action.args', text);
    this.span.updateName(`step ${this.index} ${action}`);
    this.record.action = action;
    this.record.actionHash = hash;
    return this;
  }

  /** Records a finished model call as a `chat` child span; its tokens roll up into the step. */
  llm(call: LlmCall & { startTime?: TimeInput; endTime?: TimeInput }): this {
    const span = this.host.tracer.startSpan(
      `chat ${call.model}`,
      {
        kind: SpanKind.CLIENT,
        attributes: llmAttributes(call),
        startTime: call.startTime ?? this.host.now(),
      },
      this.context,
    );
    this.addUsage(call.model, call);
    span.end(call.endTime ?? this.host.now());
    return this;
  }

  /** Times a model call; `usage` reads the tokens from its reply. */
  async callLlm<T>(
    request: Omit<LlmCall, keyof TokenUsage>,
    call: () => T | Promise<T>,
    usage: (reply: T) => TokenUsage & { finishReason?: string; responseModel?: string },
  ): Promise<T> {
    const startTime = this.host.now() ?? Date.now();
    const reply = await call();
    this.llm({ ...request, ...usage(reply), startTime, endTime: this.host.now() });
    return reply;
  }

  /** Records a finished tool call as an `execute_tool` child span. */
  tool(call: ToolCall & { startTime?: TimeInput; endTime?: TimeInput }): this {
    const span = this.host.tracer.startSpan(
      `execute_tool ${call.name}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: toolAttributes(call),
        startTime: call.startTime ?? this.host.now(),
      },
      this.context,
    );
    if (call.error) span.setStatus({ code: SpanStatusCode.ERROR, message: call.error.message });
    span.end(call.endTime ?? this.host.now());
    if (call.error?.errorClass !== undefined) this.record.errorClass = call.error.errorClass;
    return this;
  }

  /**
   * Runs a tool and records it: its arguments, its result, or its failure (a `ToolError` names
   * the class; anything else is recorded by name and re-thrown all the same). The step takes the
   * call as its action unless one was named.
   */
  async callTool<T>(name: string, args: unknown, run: () => T | Promise<T>): Promise<T> {
    if (this.record.action === null) this.act(name, args);
    const startTime = this.host.now() ?? Date.now();
    try {
      const result = await run();
      this.tool({ name, args, result, startTime, endTime: this.host.now() });
      // The step's own result is what Loopscope compares when a run carries no state hashes.
      if (this.record.action === name && this.record.resultHash === null) this.observe({ result });
      return result;
    } catch (error) {
      const failure: ToolFailure =
        error instanceof ToolError
          ? { message: error.message, errorClass: error.errorClass, type: error.type }
          : { message: (error as Error).message ?? String(error), type: (error as Error).name };
      this.tool({ name, args, error: failure, startTime, endTime: this.host.now() });
      if (failure.errorClass) this.fail(failure.errorClass, failure.message);
      throw error;
    }
  }

  /** What the step observed after acting: the state, the tool's output, the progress metric. */
  observe(observation: Observation): this {
    const fields = observation.stateFields ?? this.host.stateFields;
    const hash =
      observation.stateHash ??
      (observation.state ? stateHash(observation.state, fields) : undefined);
    if (hash !== undefined) {
      this.span.setAttribute('loop.state.hash', hash);
      this.record.stateHash = hash;
    }
    if (observation.result !== undefined) {
      const text = toText(observation.result);
      this.span.setAttribute('gen_ai.tool.call.result', text);
      this.record.resultHash = canonicalResultHash(text);
    }
    if (observation.progress !== undefined) {
      this.span.setAttribute('loop.progress', observation.progress);
      this.record.progress = observation.progress;
    }
    if (observation.contextTokens !== undefined)
      this.span.setAttribute('loop.context_tokens', observation.contextTokens);
    return this;
  }

  /** The verify stage: `environment` only for a check outside the agent, `self` by default. */
  verify(
    verdict: Verdict,
    options: { source?: VerdictSource; fields?: Record<string, boolean> } = {},
  ): this {
    const source = options.source ?? 'self';
    this.span.setAttribute('loop.verdict', verdict);
    this.span.setAttribute('loop.verdict.source', source);
    if (options.fields)
      this.span.setAttribute('loop.verdict.fields', JSON.stringify(options.fields));
    this.record.verdict = verdict;
    this.record.verdictSource = source;
    return this;
  }

  /** Tokens or cost on the step itself, for harnesses that do not record model calls. */
  spend(spend: Spend): this {
    const attributes: Attributes = usageAttributes(spend);
    if (spend.model !== undefined) attributes['gen_ai.request.model'] = spend.model;
    if (spend.costUsd !== undefined) attributes['loop.cost_usd'] = spend.costUsd;
    this.span.setAttributes(attributes);
    if (spend.costUsd !== undefined) this.explicitUsd = spend.costUsd;
    else if (spend.model !== undefined && this.callsUsd === 0) this.addUsage(spend.model, spend);
    this.record.costUsd = this.costUsd;
    return this;
  }

  fail(errorClass: ErrorClass, message: string): this {
    this.span.setAttribute('loop.error.class', errorClass);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message });
    this.record.errorClass = errorClass;
    return this;
  }

  get isEnded(): boolean {
    return this.ended;
  }

  end(endTime?: TimeInput): void {
    if (this.ended) return;
    this.ended = true;
    this.span.end(endTime ?? this.host.now());
    this.host.stepEnded(this);
  }

  private addUsage(model: string, usage: TokenUsage & { costUsd?: number }): void {
    this.usage.inputTokens += usage.inputTokens ?? 0;
    this.usage.outputTokens += usage.outputTokens ?? 0;
    this.usage.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.callsUsd += usage.costUsd ?? this.host.price(model, usage) ?? 0;
    this.record.costUsd = this.costUsd;
  }
}
