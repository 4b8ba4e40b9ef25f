// (f) A healthy loop: page through the billing API with a cursor and export every invoice of the
// month. The same tool every step, but with a new cursor and a new state each time; the progress
// metric (invoices left) improves every step, and an outside count confirms the export.
import { ToolError } from '../kit/index';
import type { Outcome, SampleInput, Script, Task, World } from './agent-loop';
import { MODELS } from './scripted-model';

const PAGE = 100;

class BillingApi implements World {
  readonly stateFields = ['exported', 'cursor'];
  private exported = 0;
  private cursor: string | null = null;

  constructor(
    private readonly input: SampleInput,
    readonly total: number,
  ) {}

  get pages(): number {
    return Math.ceil(this.total / PAGE);
  }

  state() {
    return { exported: this.exported, cursor: this.cursor };
  }

  progress(): number {
    return this.total - this.exported;
  }

  call(tool: string, args: Record<string, unknown>) {
    if (tool !== 'export_page') throw new ToolError(`unknown tool ${tool}`, 'malformed');
    const { rng, clock } = this.input;
    clock.advance(rng.int(700, 2_500));
    const rows = Math.min(PAGE, this.total - this.exported);
    this.exported += rows;
    this.cursor =
      this.exported < this.total
        ? Buffer.from(`invoice:${this.exported}`).toString('base64url')
        : null;
    return { result: { cursor: args.cursor, rows, next: this.cursor }, tokens: rng.int(80, 200) };
  }

  check() {
    const complete = this.exported === this.total;
    return { pass: complete, fields: { count_matches_api: complete, no_duplicates: true } };
  }
}

function* crawlScript(): Script {
  let cursor: string | null = null;
  for (let page = 1; ; page++) {
    const outcome: Outcome | undefined = yield {
      kind: 'tool',
      tool: 'export_page',
      args: { month: '2026-03', cursor },
      thought: page === 1 ? 'Start with the first page.' : 'Continue with the next cursor.',
    };
    const next: string | null =
      (outcome?.result as { next?: string | null } | undefined)?.next ?? null;
    if (next === null) break;
    cursor = next;
  }
  yield { kind: 'done', claim: 'Exported every invoice of March 2026 to the warehouse.' };
}

export function invoiceCrawl(input: SampleInput): Task {
  const world = new BillingApi(input, input.rng.int(620, 1_380));
  return {
    goal: 'Export every invoice of March 2026 from the billing API to the warehouse.',
    agent: 'invoice-crawler',
    variant: input.variant,
    runId: input.runId,
    model: MODELS['gpt-4o-mini'],
    limits: { maxSteps: 30, maxUsd: 0.25 },
    world,
    script: crawlScript(),
    controls: { guard: true, verifyClaims: true },
    verifiedUnits: () => world.pages,
    pauseMs: [300, 1_200],
  };
}
