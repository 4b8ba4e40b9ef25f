// (d) Fix A / fix B: two tests want opposite things from formatDate. Fix A keeps the caller's
// offset and breaks the audit-log test; fix B restores UTC and breaks the offset test; the agent
// goes back to A. The repository returns to an earlier state (a revisit, cycle 2). With the guard
// the loop hands the choice to a person; without it, it alternates until its step budget.
import { ToolError } from '../kit/index';
import type { SampleInput, Script, Task, World } from './agent-loop';
import { MODELS } from './scripted-model';

const FILE = 'src/format-date.ts';
const UTC_TEST = 'formatDate › audit log lines are in UTC';
const OFFSET_TEST = 'formatDate › keeps the caller’s offset';
type Version = 'original' | 'fix-a-keep-offset' | 'fix-b-utc';

export const OSCILLATION_HAND_OVER = `Decide what ${FILE} returns: fix A keeps the caller's offset (and "${UTC_TEST}" fails), fix B renders UTC (and "${OFFSET_TEST}" fails). The two tests contradict each other; change one of them or split formatDate in two.`;

class DateFormatter implements World {
  readonly stateFields = ['file', 'failingTests'];
  private version: Version = 'original';

  constructor(private readonly input: SampleInput) {}

  private failing(): string[] {
    return this.version === 'fix-a-keep-offset' ? [UTC_TEST] : [OFFSET_TEST];
  }

  state() {
    return { file: this.version, failingTests: this.failing() };
  }

  progress(): number {
    return this.failing().length;
  }

  call(tool: string, args: Record<string, unknown>) {
    const { rng, clock } = this.input;
    if (tool !== 'edit_and_test') throw new ToolError(`unknown tool ${tool}`, 'malformed');
    clock.advance(rng.int(25_000, 60_000));
    this.version = args.fix === 'A' ? 'fix-a-keep-offset' : 'fix-b-utc';
    return {
      result: { file: FILE, failed: this.failing(), passed: 37 },
      tokens: rng.int(300, 800),
    };
  }

  check() {
    const failing = this.failing();
    return {
      pass: failing.length === 0,
      fields: {
        [UTC_TEST]: !failing.includes(UTC_TEST),
        [OFFSET_TEST]: !failing.includes(OFFSET_TEST),
      },
    };
  }
}

function* oscillationScript(): Script {
  for (;;) {
    yield {
      kind: 'tool',
      tool: 'edit_and_test',
      args: {
        path: FILE,
        fix: 'A',
        change: 'format with the caller’s zone instead of toISOString()',
      },
      thought: `"${OFFSET_TEST}" fails because formatDate converts to UTC. Keep the caller's offset.`,
    };
    yield {
      kind: 'tool',
      tool: 'edit_and_test',
      args: { path: FILE, fix: 'B', change: 'restore toISOString() for UTC output' },
      thought: `Now "${UTC_TEST}" fails: audit lines must be UTC. Restore toISOString().`,
    };
  }
}

export function fixOscillation(input: SampleInput): Task {
  const guarded = input.variant === 'guard';
  return {
    goal: `Make "${OFFSET_TEST}" pass without breaking the rest of the suite.`,
    agent: 'test-fixer',
    variant: input.variant,
    runId: input.runId,
    model: MODELS['o4-mini'],
    limits: { maxSteps: 8 },
    world: new DateFormatter(input),
    script: oscillationScript(),
    controls: {
      checkEachStep: true,
      guard: guarded,
      handOverOnCycle: guarded ? () => OSCILLATION_HAND_OVER : undefined,
    },
    pauseMs: [1_000, 4_000],
  };
}
