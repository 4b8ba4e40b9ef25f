// Runs the dashboard specs need beyond scenarios.ts: one that never names why it stopped, one
// with hostile text in its goal and arguments, and a long trajectory.
import type { Tracer } from '@opentelemetry/api';
import { startRun } from '../../kit/index';
import type { RunSpec } from './scenarios';

/** A run whose root span ends without `loop.exit.reason`: it ends `unknown`. */
export function emitWithoutExitReason(tracer: Tracer, goal: string, startMs: number): string {
  const run = startRun(tracer, { goal, agent: 'ops-agent', startTime: startMs });
  const step = run.step({
    action: 'check_health',
    args: { service: 'billing' },
    startTime: startMs + 10,
  });
  step.observe({ state: { status: 'down' } }).spend({ costUsd: 0.01 });
  step.end(startMs + 500);
  run.span.end(startMs + 600);
  return run.span.spanContext().traceId;
}

export const HOSTILE_GOAL = '<img src=x onerror="alert(1)"><script>alert(2)</script> ship it';
export const HOSTILE_ARGS = {
  cmd: '<script>alert(3)</script>',
  note: '<img src=y onerror=alert(4)>',
};

/** Hostile text where people type: the goal, tool arguments, the result; an odd run id. */
export function hostileRun(runId: string, startMs: number): RunSpec {
  return {
    goal: HOSTILE_GOAL,
    agent: 'coder',
    runId,
    startMs,
    steps: [
      {
        action: 'run_shell',
        args: HOSTILE_ARGS,
        result: '<b onmouseover=alert(5)>done</b>',
        state: { ok: false },
        verdict: 'fail',
        verdictSource: 'environment',
        costUsd: 0.01,
      },
      { action: 'run_shell', args: { cmd: 'true' }, state: { ok: true }, costUsd: 0.01 },
    ],
    end: { termination: { kind: 'hard_error', error: '<script>alert(6)</script>' } },
  };
}

/** A long oscillating trajectory: states cycle through `cycle` letters, progress stalls. */
export function longTrajectory(steps: number, startMs: number, cycle = 3): RunSpec {
  return {
    goal: `Reconcile the ledger (${steps} steps)`,
    agent: 'reconciler',
    startMs,
    stepMs: 20,
    limits: { maxSteps: steps },
    steps: Array.from({ length: steps }, (_, k) => ({
      action: `adjust_entry_${k % (cycle + 1)}`,
      args: { entry: k % 50 },
      state: { view: k % cycle },
      progress: Math.max(3, 100 - k),
      costUsd: 0.0005,
    })),
    end: { termination: { kind: 'step_ceiling', steps, cap: steps } },
  };
}

/** Claims the goal while the environment's field-by-field check fails, on a model with no price. */
export function emitFabricatedUnpriced(tracer: Tracer, startMs: number): string {
  const run = startRun(tracer, {
    goal: 'Fill in the signup form',
    agent: 'form-filler',
    startTime: startMs,
  });
  const step = run.step({
    action: 'fill_form',
    args: { name: 'Ada', email: 'ada@example.com' },
    startTime: startMs + 10,
  });
  step
    .observe({ state: { filled: 2 }, result: { ok: true } })
    .spend({ inputTokens: 1200, outputTokens: 300, model: 'mystery-model-9' })
    .verify('fail', { source: 'environment', fields: { email: true, name: false } });
  step.end(startMs + 900);
  run.end({ kind: 'goal_met' }, { endTime: startMs + 1000 });
  return run.span.spanContext().traceId;
}
