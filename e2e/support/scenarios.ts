// Loop trajectories from the loop-engineering literature, written with the instrumentation kit,
// with explicit timestamps so runs can be placed anywhere in time.
import type { Attributes, Tracer } from '@opentelemetry/api';
import { startRun } from '../../kit/index';
import type { Termination } from '../../kit/index';

export interface StepSpec {
  action: string;
  args?: unknown;
  state?: Record<string, unknown>;
  result?: unknown;
  progress?: number;
  verdict?: 'pass' | 'fail' | 'stalled';
  verdictSource?: 'environment' | 'judge' | 'self';
  costUsd?: number;
  tokens?: { input: number; output: number; model: string };
  fail?: 'transient' | 'permission' | 'precondition' | 'malformed';
}

export interface RunSpec {
  goal: string;
  agent?: string;
  variant?: string;
  runId?: string;
  startMs?: number;
  stepMs?: number;
  limits?: { maxSteps?: number; maxUsd?: number; wallClockMs?: number };
  /** What the progress metric counts (`loop.progress.name`), and which way is better. */
  progressName?: string;
  progressDirection?: 'down' | 'up';
  /** More attributes of the run span (a session id, tags, ...). */
  attributes?: Attributes;
  steps: StepSpec[];
  /** An LLM call of the run itself, outside every step (planning, a final summary). */
  runLlm?: { input: number; output: number; model: string };
  end?: { termination: Termination; verified?: boolean; verifiedUnits?: number } | null;
}

/** Emits one run; returns its trace id. Steps are `stepMs` apart; an LLM call sits inside each. */
export function emitRun(tracer: Tracer, spec: RunSpec): string {
  const start = spec.startMs ?? Date.now() - 60_000;
  const stepMs = spec.stepMs ?? 1000;
  const run = startRun(tracer, {
    goal: spec.goal,
    agent: spec.agent,
    variant: spec.variant,
    runId: spec.runId,
    limits: spec.limits,
    progressDirection: spec.progressDirection,
    startTime: start,
  });
  if (spec.progressName) run.span.setAttribute('loop.progress.name', spec.progressName);
  if (spec.attributes) run.span.setAttributes(spec.attributes);
  spec.steps.forEach((s, k) => {
    const t0 = start + 10 + k * stepMs;
    const step = run.step({ action: s.action, args: s.args, startTime: t0 });
    if (s.tokens) {
      const llm = run.child(
        `chat ${s.tokens.model}`,
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': s.tokens.model,
          'gen_ai.usage.input_tokens': s.tokens.input,
          'gen_ai.usage.output_tokens': s.tokens.output,
        },
        { step, startTime: t0 + 1 },
      );
      llm.end(t0 + stepMs / 2);
    }
    step.observe({ state: s.state, result: s.result, progress: s.progress });
    if (s.verdict) step.verify(s.verdict, { source: s.verdictSource ?? 'self' });
    if (s.costUsd !== undefined) step.spend({ costUsd: s.costUsd });
    if (s.fail) step.fail(s.fail, `${s.action} failed`);
    step.end(t0 + stepMs - 10);
  });
  if (spec.runLlm) {
    const t = start + spec.steps.length * stepMs + 5;
    run
      .child(
        `chat ${spec.runLlm.model}`,
        {
          'gen_ai.operation.name': 'chat',
          'gen_ai.request.model': spec.runLlm.model,
          'gen_ai.usage.input_tokens': spec.runLlm.input,
          'gen_ai.usage.output_tokens': spec.runLlm.output,
        },
        { startTime: t },
      )
      .end(t + 10);
  }
  if (spec.end !== null) {
    const end = spec.end ?? { termination: { kind: 'goal_met' } as Termination };
    run.end(end.termination, {
      verified: end.verified,
      verifiedUnits: end.verifiedUnits,
      endTime: start + spec.steps.length * stepMs + 20,
    });
  }
  return run.span.spanContext().traceId;
}

/** The restart loop: the service is down because its database URL is wrong; restart "works". */
export function restartLoop(overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    goal: 'Bring the orders service back up',
    agent: 'ops-agent',
    steps: [
      {
        action: 'check_health',
        args: { service: 'orders' },
        result: { status: 'down' },
        costUsd: 0.01,
      },
      {
        action: 'restart_service',
        args: { service: 'orders' },
        result: 'restart ok',
        costUsd: 0.02,
      },
      {
        action: 'restart_service',
        args: { service: ' orders ' },
        result: 'restart ok',
        costUsd: 0.02,
      },
      {
        action: 'restart_service',
        args: { service: 'orders' },
        result: 'restart ok',
        costUsd: 0.02,
      },
    ],
    end: { termination: { kind: 'no_progress', signal: 'repeated_call', step: 3 } },
    ...overrides,
  };
}

/** The restart loop's good twin: the config fixed before the restart, the health checked after. */
export function fixedRestart(overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    goal: 'Bring the orders service back up',
    agent: 'ops-agent',
    steps: [
      {
        action: 'check_health',
        args: { service: 'orders' },
        result: { status: 'down' },
        costUsd: 0.01,
      },
      {
        action: 'update_config',
        args: { service: 'orders', databaseUrl: 'postgres://db-new/orders' },
        result: 'updated',
        costUsd: 0.02,
      },
      {
        action: 'restart_service',
        args: { service: 'orders' },
        result: 'restart ok',
        costUsd: 0.02,
      },
      {
        action: 'check_health',
        args: { service: 'orders' },
        result: { status: 'up' },
        verdict: 'pass',
        verdictSource: 'environment',
        costUsd: 0.01,
      },
    ],
    end: { termination: { kind: 'goal_met' } },
    ...overrides,
  };
}

const states = (...letters: string[]) => letters.map((l) => ({ file: `fix-${l}` }));

/** Fix A / fix B / fix A …: the state oscillates, every action differs from the last. */
export function oscillation(
  cycle: string[] = ['A', 'B', 'A', 'B'],
  overrides: Partial<RunSpec> = {},
): RunSpec {
  return {
    goal: 'Make the failing test pass',
    agent: 'coder',
    steps: states(...cycle).map((state, k) => ({
      action: `apply_fix_${cycle[k]}`,
      args: { attempt: k + 1 },
      state,
      costUsd: 0.05,
    })),
    end: { termination: { kind: 'no_progress', signal: 'cyclical_loop', step: cycle.length } },
    ...overrides,
  };
}

/** Every step different, progress flat at 5: a slow stall. */
export function slowStall(steps = 8): RunSpec {
  return {
    goal: 'Resolve every field of the form',
    agent: 'form-filler',
    steps: Array.from({ length: steps }, (_, k) => ({
      action: `edit_field_${k}`,
      args: { field: k },
      state: { version: k },
      progress: 5,
      costUsd: 0.01,
    })),
    end: { termination: { kind: 'step_ceiling', steps, cap: steps } },
    limits: { maxSteps: steps },
  };
}

/** A paginated crawl: arguments and state change every call; ends verified by the environment. */
export function paginatedCrawl(pages = 5): RunSpec {
  return {
    goal: 'Export every invoice',
    agent: 'crawler',
    steps: [
      ...Array.from({ length: pages }, (_, k) => ({
        action: 'list_invoices',
        args: { page: k + 1 },
        state: { exported: (k + 1) * 100 },
        progress: pages - k - 1,
        costUsd: 0.002,
      })),
      {
        action: 'check_export',
        args: {},
        state: { exported: pages * 100 },
        verdict: 'pass' as const,
        verdictSource: 'environment' as const,
      },
    ],
    end: { termination: { kind: 'goal_met' }, verifiedUnits: pages },
  };
}
