// The harness every sample runs in: an ordinary tool-calling loop written with the kit. The
// model's choices come from the sample's script, the world answers its tool calls, and the
// controls (guard, progress check, circuit breaker, outside goal check) are switches, so the
// same task can run uncontrolled and controlled.
import type { Tracer } from '@opentelemetry/api';
import { startRun, ToolError } from '../kit/index';
import type { Limits, LoopStep, StopRules, Termination, TokenUsage } from '../kit/index';
import type { ErrorClass } from '../trajectory/step';
import type { Random, VirtualClock } from './random';
import { ScriptedModel, tokensOf } from './scripted-model';
import type { ModelProfile } from './scripted-model';

export type Move =
  | { kind: 'tool'; tool: string; args: Record<string, unknown>; thought: string }
  | { kind: 'done'; claim: string }
  | { kind: 'escalate'; handOver: string; cause?: ErrorClass | string };

/** What the script hears back after its last move. */
export interface Outcome {
  result?: unknown;
  error?: { message: string; errorClass: ErrorClass };
  /** The outside check refused a claim of success, or failed after an action. */
  checkFailed?: string[];
}

/** The model's side of the conversation, scripted: yields moves, receives outcomes. */
export type Script = Generator<Move, void, Outcome | undefined>;

export interface Check {
  pass: boolean;
  fields: Record<string, boolean>;
}

export interface World {
  /** The fields the goal depends on: the state hash covers only these. */
  readonly stateFields: readonly string[];
  state(): Record<string, unknown>;
  progress?(): number;
  /** Answers a tool call (advancing the clock by its latency); throws ToolError on failure. */
  call(tool: string, args: Record<string, unknown>): { result: unknown; tokens?: number };
  /** The outside goal check: the environment, not the agent's word. */
  check?(): Check;
  /** Files or resources touched that the goal never asked for. */
  outOfScope?(): string[];
}

export interface Controls {
  /** Stop on a repeat or a cycle (the local guard: the server's own rules). */
  guard?: boolean;
  /** Stop when progress stalls; a stall with out-of-scope changes is goal drift. */
  progressCheck?: boolean;
  circuitBreaker?: boolean;
  /** Run the outside check after every action; stop verified when it passes. */
  checkEachStep?: boolean;
  /** Run the outside check on a claim of success and refuse the claim when it fails. */
  verifyClaims?: boolean;
  /** No outside check at all: a claim of success stands on the agent's word (unverified). */
  noOutsideCheck?: boolean;
  /** Escalate a cycle with this hand-over instead of stopping. */
  handOverOnCycle?: () => string;
}

export interface Task {
  goal: string;
  agent: string;
  variant: string;
  runId: string;
  /** The conversation the run belongs to (`loop.session.id`). */
  sessionId?: string;
  model: ModelProfile;
  limits: Limits;
  world: World;
  script: Script;
  controls: Controls;
  verifiedUnits?: () => number;
  /** Time between steps: rate limits, webhooks, a person's pace. */
  pauseMs?: [number, number];
  progressDirection?: 'down' | 'up';
}

/** What every sample builds its task from: ids, the seeded behaviour and the clock. */
export interface SampleInput {
  runId: string;
  variant: string;
  rng: Random;
  clock: VirtualClock;
}

export interface TaskContext {
  tracer: Tracer;
  clock: VirtualClock;
  rng: Random;
  price: (model: string, usage: TokenUsage) => number | null;
}

export interface TaskResult {
  runId: string;
  termination: Termination;
  steps: number;
}

export async function runTask(task: Task, ctx: TaskContext): Promise<TaskResult> {
  const { world, controls } = task;
  const run = startRun(ctx.tracer, {
    goal: task.goal,
    agent: task.agent,
    variant: task.variant,
    runId: task.runId,
    sessionId: task.sessionId,
    limits: task.limits,
    stateFields: world.stateFields,
    progressDirection: task.progressDirection,
    clock: ctx.clock.now,
    price: ctx.price,
  });
  const model = new ScriptedModel(task.model, ctx.rng, ctx.clock);
  model.hear(tokensOf(task.goal));
  const rules: StopRules = {
    limits: true,
    repeat: controls.guard === true,
    cycle: controls.guard === true,
    stall: controls.progressCheck === true,
    toolCircuit: controls.circuitBreaker === true,
  };
  const finish = (termination: Termination, check?: Check): TaskResult => {
    const verified = check?.pass;
    run.end(termination, {
      verified,
      verifiedUnits: verified ? (task.verifiedUnits?.() ?? 1) : undefined,
    });
    return { runId: task.runId, termination, steps: run.stepCount };
  };

  let outcome: Outcome | undefined;
  for (;;) {
    const stop = run.check(rules);
    if (stop) return finish(controlledExit(stop, task));
    const next = task.script.next(outcome);
    const step = run.step();
    if (next.done) {
      await model.answer(step, 'Nothing left to do.', 'stop');
      step.act('final_answer', { claim: 'Nothing left to do.' }).end();
      return finish({ kind: 'model_stopped' });
    }
    const move = await model.answer(
      step,
      next.value,
      next.value.kind === 'tool' ? 'tool_calls' : 'stop',
    );
    if (move.kind === 'escalate') {
      step.act('hand_over', { message: move.handOver });
      step.observe({ state: world.state(), progress: world.progress?.() }).end();
      return finish({ kind: 'escalated', handOver: move.handOver, cause: move.cause });
    }
    if (move.kind === 'done') {
      step.act('final_answer', { claim: move.claim });
      const check = controls.noOutsideCheck ? undefined : world.check?.();
      observe(step, world, model);
      if (check)
        step.verify(check.pass ? 'pass' : 'fail', { source: 'environment', fields: check.fields });
      step.end();
      if (!check || check.pass || !controls.verifyClaims)
        return finish({ kind: 'goal_met' }, check);
      outcome = { checkFailed: failed(check) };
      model.hear(40);
      continue;
    }
    outcome = await act(step, world, move, model);
    observe(step, world, model, outcome);
    if (controls.checkEachStep && world.check) {
      const check = world.check();
      step.verify(check.pass ? 'pass' : 'fail', { source: 'environment', fields: check.fields });
      step.end();
      if (check.pass) return finish({ kind: 'goal_met' }, check);
      outcome.checkFailed = failed(check);
      model.hear(30);
    } else {
      step.end();
    }
    if (task.pauseMs) ctx.clock.advance(ctx.rng.int(...task.pauseMs));
  }
}

async function act(
  step: LoopStep,
  world: World,
  move: Extract<Move, { kind: 'tool' }>,
  model: ScriptedModel,
): Promise<Outcome> {
  let tokens = 0;
  try {
    const result = await step.callTool(move.tool, move.args, () => {
      const answer = world.call(move.tool, move.args);
      tokens = answer.tokens ?? tokensOf(answer.result);
      return answer.result;
    });
    model.hear(tokens);
    return { result };
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    model.hear(tokensOf(error.message));
    return { error: { message: error.message, errorClass: error.errorClass } };
  }
}

function observe(step: LoopStep, world: World, model: ScriptedModel, outcome?: Outcome): void {
  step.observe({
    state: world.state(),
    progress: world.progress?.(),
    contextTokens: model.contextTokens,
    result: outcome?.error ? { error: outcome.error.message } : undefined,
  });
}

/** A stop the controls found, as the run should end: a cycle may go to a person, a stall may be drift. */
function controlledExit(stop: Termination, task: Task): Termination {
  if (stop.kind !== 'no_progress') return stop;
  if (stop.signal === 'cyclical_loop' && task.controls.handOverOnCycle)
    return { kind: 'escalated', handOver: task.controls.handOverOnCycle(), cause: 'cyclical_loop' };
  const drifted = stop.signal === 'stalled' ? (task.world.outOfScope?.() ?? []) : [];
  if (drifted.length > 0)
    return { kind: 'goal_drift', detail: { outOfScope: drifted, step: stop.step } };
  return stop;
}

function failed(check: Check): string[] {
  return Object.entries(check.fields)
    .filter(([, ok]) => !ok)
    .map(([field]) => field);
}
