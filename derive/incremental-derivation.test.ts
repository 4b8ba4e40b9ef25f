// Deriving a run again from what the last derivation kept (assemble-run, derive-run and run-rows
// with `previous`, as derive-runs does for long runs) must give exactly what deriving all of its
// spans gives, whatever arrives: spans in start order or not, late parents, ids sent twice,
// cycles of parent ids, step numbers that go back, states that appear late, tool calls answered
// later. Checked on the committed captures of real frameworks, batch by batch as their exporters
// would send them, and on random streams; and the memos must actually be gone on from where
// spans only add steps.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { captureSpans } from '@/conformance/read-capture';
import { mulberry32 } from '@/lib/mulberry32';
import { extractSpanFacts } from '@/ingest/span-facts';
import { TEST_PRICE_TABLE } from '@/ingest/test-spans';
import { validateSpans } from '@/ingest/validate';
import { deriveRun } from '@/trajectory/derive-run';
import type { DerivationMemo, DeriveOptions } from '@/trajectory/derive-run';
import type { SpanFacts, SpanRole } from '@/trajectory/span-facts';
import type { ErrorClass } from '@/trajectory/step';
import { assembleRun } from './assemble-run';
import type { Assembly } from './assemble-run';
import { toStepRows } from './run-rows';
import type { RowsMemo } from './run-rows';
import type { StoredSpan } from './span-tree';

const CAPTURES = join(import.meta.dirname, '..', 'conformance', 'captures');

interface Held {
  assembly: Assembly | null;
  derivation?: DerivationMemo;
  rows?: RowsMemo;
}

interface Derivation {
  result: unknown;
  held: Held;
}

function derive(
  spans: readonly StoredSpan[],
  options: Partial<DeriveOptions>,
  held?: Held,
): Derivation {
  const assembled = assembleRun(spans, TEST_PRICE_TABLE, {
    idle: false,
    ignoreArgsFor: () => options.ignoreArgs ?? [],
    previous: held?.assembly ?? undefined,
    remember: true,
  });
  const derived = deriveRun(assembled.input, assembled.steps, options, held?.derivation);
  const rows = toStepRows('run', assembled, derived, held?.rows);
  const { assembly, ...run } = assembled;
  const { memo, ...findings } = derived;
  return {
    result: { run, findings, rows: rows.rows },
    held: { assembly, derivation: memo, rows },
  };
}

/**
 * Derives after each batch, going on from the last derivation, and checks it against a whole one.
 * A batch adds spans; `replace` sends held spans again (new objects), `drop` loses them.
 */
function checkStream(
  batches: readonly (StoredSpan[] | { replace?: StoredSpan[]; drop?: StoredSpan[] })[],
  options: Partial<DeriveOptions> = {},
): { extended: number } {
  let all: StoredSpan[] = [];
  let held: Held | undefined;
  let extended = 0;
  for (const batch of batches) {
    if (Array.isArray(batch)) all.push(...batch);
    else {
      const gone = new Set([...(batch.drop ?? []), ...(batch.replace ?? [])]);
      all = all.filter((s) => !gone.has(s));
      for (const s of batch.replace ?? []) all.push({ ...s, facts: { ...s.facts } });
    }
    const before = held?.assembly?.tree;
    const going = derive(all, options, held);
    const whole = derive(all, options);
    expect(going.result).toEqual(whole.result);
    if (before && going.held.assembly?.tree === before) extended++;
    held = going.held;
  }
  return { extended };
}

function storedSpans(capture: string): StoredSpan[] {
  const { spans } = validateSpans({ spans: captureSpans(join(CAPTURES, capture)) });
  return spans.map((s) => ({
    traceId: s.traceId,
    spanId: s.spanId,
    parentSpanId: s.parentSpanId,
    name: s.name,
    startMs: s.startMs,
    endMs: s.endMs,
    statusCode: s.statusCode,
    statusMessage: s.statusMessage,
    facts: extractSpanFacts(s),
  }));
}

/** Batches of about `size` spans in the order they ended, as a batch exporter sends them. */
function byEnd(spans: readonly StoredSpan[], size: number): StoredSpan[][] {
  const ended = [...spans].sort((a, b) => (a.endMs ?? a.startMs) - (b.endMs ?? b.startMs));
  const batches: StoredSpan[][] = [];
  for (let k = 0; k < ended.length; k += size) batches.push(ended.slice(k, k + size));
  return batches;
}

const captures = readdirSync(CAPTURES).flatMap((framework) =>
  readdirSync(join(CAPTURES, framework)).map((scenario) => `${framework}/${scenario}`),
);

describe('a derivation that goes on from the last one', () => {
  it.each(captures)('gives the whole derivation on %s, batch by batch', (capture) => {
    const spans = storedSpans(capture);
    const traces = [...new Set(spans.map((s) => s.traceId))];
    for (const trace of traces) {
      const ofTrace = spans.filter((s) => s.traceId === trace);
      for (const size of [1, 3]) checkStream(byEnd(ofTrace, size));
    }
    // Every trace as one run, as a run id that spans traces makes it.
    checkStream(byEnd(spans, 2));
  });

  it('goes on from the last one while steps only add to the run (the kit, streaming)', () => {
    const random = mulberry32(11);
    const batches: StoredSpan[][] = [];
    let t = 0;
    for (let step = 1; step <= 300; step++) {
      const stepId = id(2 * step);
      const toolId = id(2 * step + 1);
      t += 10;
      const tool: StoredSpan = stored(toolId, stepId, 'tool', t + 1, t + 5, {
        role: 'tool',
        action: `act${Math.floor(random() * 3)}`,
        actionHash: `h${Math.floor(random() * 3)}`,
        ...(random() < 0.2 ? { errorClass: 'transient' as ErrorClass } : {}),
      });
      const stepSpan = stored(stepId, 'feedfeedfeedfeed', `step ${step}`, t, t + 8, {
        role: 'step',
        step,
        actionHash: `h${Math.floor(random() * 4)}`,
        stateHash: `s${Math.floor(random() * 4)}`,
        progress: Math.floor(random() * 10),
        inputTokens: 10,
        outputTokens: 5,
        model: 'gpt-4o',
      });
      batches.push([tool, stepSpan]);
    }
    const { extended } = checkStream(batches, { pollingTools: ['act2'] });
    expect(extended).toBe(batches.length - 1);
  });

  it('gives the whole derivation on streams of steps with every kind of surprise', () => {
    let extended = 0;
    let derivations = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = mulberry32(1000 + seed);
      const { batches, options } = stepStream(random);
      extended += checkStream(batches, options).extended;
      derivations += batches.length;
    }
    // Most derivations go on from the last one: the surprises are the exception.
    expect(extended / derivations).toBeGreaterThan(0.5);
  });

  it('a tool call beside the steps, sent later, attaches to its step by call id', () => {
    const s1 = stored(id(1), null, 'step 1', 0, 10, { role: 'step', step: 1, toolCallIds: ['c1'] });
    const s2 = stored(id(2), null, 'step 2', 20, 30, { role: 'step', step: 2 });
    const tool = stored(id(3), null, 'tool', 40, 50, {
      role: 'tool',
      toolCallIds: ['c1'],
      costUsd: 0.5,
      result: 'ok',
    });
    checkStream([[s1, s2], [tool]]);
  });

  it('a held cycle of parent ids keeps the models in the order the whole tree finds them', () => {
    // The same cost for both models: the run's model is the one found first.
    const a = stored(id(1), id(2), 'a', 0, 1, { role: 'llm', model: 'gpt-4o', inputTokens: 1200 });
    const b = stored(id(2), id(1), 'b', 1, 2, { role: 'other' });
    const step = stored(id(3), null, 'step', 5, 6, { role: 'step', step: 1 });
    const c = stored(id(4), null, 'c', 7, 8, {
      role: 'llm',
      model: 'claude-sonnet-4',
      inputTokens: 1000,
    });
    checkStream([[a, b, step], [c]]);
  });

  it('a request that starts with a held tool call completes it', () => {
    const tool = stored(id(1), null, 'tool', 10, 12, { role: 'tool', action: 'read' });
    const call = stored(id(2), null, 'chat', 10, 11, {
      role: 'llm',
      requestedCalls: [{ name: 'read', args: '{"x":1}' }],
    });
    checkStream([[tool], [call]]);
  });

  it('a request sent later completes the held tool call that names its id', () => {
    const tool = stored(id(1), null, 'tool', 10, 12, {
      role: 'tool',
      action: 'read',
      toolCallIds: ['c9'],
    });
    const call = stored(id(2), null, 'chat', 20, 21, {
      role: 'llm',
      requestedCalls: [{ name: 'read', args: '{"x":1}', id: 'c9' }],
    });
    checkStream([[tool], [call]]);
  });

  it('gives the whole derivation on random streams of any shape', () => {
    for (let seed = 1; seed <= 150; seed++) {
      const random = mulberry32(seed);
      const spans = randomSpans(random, 10 + Math.floor(random() * 50));
      const ordered = random() < 0.6;
      const stream = ordered ? [...spans].sort((a, b) => a.startMs - b.startMs) : spans;
      const batches: StoredSpan[][] = [];
      for (let k = 0; k < stream.length;) {
        const size = 1 + Math.floor(random() * 4);
        batches.push(stream.slice(k, k + size));
        k += size;
      }
      const options = random() < 0.2 ? { ignoreArgs: ['x'] } : {};
      checkStream(batches, options);
    }
  });
});

/**
 * A run streaming its steps (a step span and its model and tool calls a batch, under a root sent
 * last or never), with now and then something that changes what is held: a parent that arrives
 * after its children, a start before the last held one, an id sent twice, a span sent again or
 * lost, state hashes that begin late, a step number that goes back or repeats, steps that stop
 * being numbered, a tool call that answers a held request, a span that names the exit reason, a
 * parentless agent span, a higher tier.
 */
function stepStream(random: () => number): {
  batches: (StoredSpan[] | { replace?: StoredSpan[]; drop?: StoredSpan[] })[];
  options: Partial<DeriveOptions>;
} {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const chance = (p: number) => random() < p;
  const ROOT = id(0xfffff);
  const batches: (StoredSpan[] | { replace?: StoredSpan[]; drop?: StoredSpan[] })[] = [];
  const sent: StoredSpan[] = [];
  const tier = pick(['step', 'cycle', 'tool'] as const);
  const statesFrom = chance(0.3) ? Math.floor(random() * 20) : 0;
  let t = 0;
  let number = 0;
  let next = 1;
  const steps = 5 + Math.floor(random() * 30);
  for (let k = 0; k < steps; k++) {
    t += 10;
    number += chance(0.05) ? -1 : 1;
    const stepId = id(next++);
    const batch: StoredSpan[] = [];
    const facts: SpanFacts = {
      role: tier === 'tool' ? 'other' : tier,
      ...(tier === 'step' && !chance(0.03) ? { step: number } : {}),
      ...(tier === 'cycle' && chance(0.5) ? { frameworkStep: number } : {}),
      actionHash: pick(['h1', 'h2', 'h3']),
      ...(k >= statesFrom && chance(0.9) ? { stateHash: pick(['s1', 's2', 's3']) } : {}),
      ...(chance(0.5) ? { progress: Math.floor(random() * 8) } : {}),
      ...(chance(0.1)
        ? { verdict: pick(['pass', 'fail'] as const), verdictSource: 'environment' as const }
        : {}),
      ...(chance(0.05) ? { exitReason: 'goal_met' } : {}),
      ...(chance(0.1)
        ? { requestedCalls: [{ name: pick(['read', 'write']), args: '{"x":1}', id: `c${k}` }] }
        : {}),
    };
    const start = chance(0.05) ? t - 25 : t;
    const parent = chance(0.9) ? ROOT : null;
    batch.push(stored(stepId, parent, `step ${k}`, start, t + 8, facts));
    batch.push(
      stored(id(next++), stepId, 'chat', start + 1, t + 3, {
        role: 'llm',
        model: pick(['gpt-4o', 'claude-sonnet-4', 'unpriced-model']),
        inputTokens: Math.floor(random() * 100),
        outputTokens: Math.floor(random() * 50),
        ...(chance(0.1) ? { requestedCalls: [{ name: 'read', id: `r${k}` }] } : {}),
      }),
    );
    if (tier === 'tool' || chance(0.6)) {
      batch.push(
        stored(id(next++), stepId, 'tool', start + 4, t + 6, {
          role: 'tool',
          action: pick(['read', 'write', 'poll']),
          actionHash: pick(['h1', 'h2']),
          ...(chance(0.2) ? { errorClass: pick(ERRORS) } : {}),
          ...(chance(0.1) ? { toolCallIds: [`c${Math.max(0, k - 1)}`] } : {}),
        }),
      );
    }
    if (chance(0.03))
      batch.push(stored(id(next++), null, 'agent', t + 7, t + 9, { role: 'agent', agent: 'late' }));
    if (chance(0.03))
      batch.push(stored(id(next++), null, 'higher', t + 7, t + 9, { role: 'step', step: 999 }));
    if (chance(0.03) && sent.length > 0) batch.push({ ...pick(sent), startMs: pick(sent).startMs });
    if (chance(0.03) && sent.length > 0) {
      // The parent of held spans, arriving after them.
      const child = pick(sent);
      if (child.parentSpanId)
        batch.push(
          stored(child.parentSpanId, null, 'late parent', t + 7, t + 9, { role: 'chain' }),
        );
    }
    sent.push(...batch);
    batches.push(batch);
    if (chance(0.03) && sent.length > 2) batches.push({ replace: [pick(sent)] });
    if (chance(0.02) && sent.length > 2) batches.push({ drop: [pick(sent)] });
  }
  if (chance(0.5))
    batches.push([stored(ROOT, null, 'run', 0, t + 20, { role: 'agent', goal: 'g' })]);
  const options: Partial<DeriveOptions> = chance(0.3)
    ? { pollingTools: ['poll'], stallWindow: 2, toolCircuitThreshold: 2 }
    : {};
  return { batches, options };
}

const ROLES: SpanRole[] = ['step', 'cycle', 'agent', 'tool', 'llm', 'chain', 'other'];
const ERRORS: ErrorClass[] = ['transient', 'malformed', 'loop_hazard'];

function randomSpans(random: () => number, n: number): StoredSpan[] {
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const maybe = <T>(p: number, value: () => T): T | undefined =>
    random() < p ? value() : undefined;
  const withStates = random() < 0.5;
  const numbered = random() < 0.5;
  const spans: StoredSpan[] = [];
  let t = 0;
  for (let k = 0; k < n; k++) {
    // Ids from a small pool: now and then one is sent twice, or names a parent sent later.
    const spanId = id(Math.floor(random() * n * 1.2) + 1);
    const parent =
      random() < 0.3 ? null : random() < 0.8 && k > 0 ? pick(spans).spanId : id(n * 2 + k);
    t += random() < 0.1 ? -5 : Math.floor(random() * 4);
    const role = pick(ROLES);
    const facts: SpanFacts = {
      role,
      step: numbered && random() < 0.8 ? 1 + Math.floor(random() * n * 0.5) : undefined,
      frameworkStep: maybe(0.05, () => Math.floor(random() * 5)),
      action: maybe(0.6, () => pick(['read', 'write', 'poll'])),
      actionArgs: maybe(0.4, () => JSON.stringify({ x: Math.floor(random() * 3), y: 1 })),
      actionHash: maybe(0.6, () => pick(['h1', 'h2', 'h3'])),
      stateHash: withStates ? maybe(0.7, () => pick(['s1', 's2', 's3'])) : undefined,
      resultHash: maybe(0.5, () => pick(['r1', 'r2'])),
      progress: maybe(0.5, () => Math.floor(random() * 6)),
      errorClass: maybe(0.2, () => pick(ERRORS)),
      inputTokens: maybe(0.4, () => Math.floor(random() * 100)),
      outputTokens: maybe(0.4, () => Math.floor(random() * 100)),
      model: maybe(0.4, () => pick(['gpt-4o', 'claude-sonnet-4', 'unpriced-model'])),
      costUsd: maybe(0.1, () => random()),
      exitReason: maybe(0.03, () => pick(['goal_met', 'max_steps'])),
      agent: maybe(0.1, () => pick(['a', 'b'])),
      goal: maybe(0.1, () => pick(['g1', 'g2'])),
      verified: maybe(0.03, () => random() < 0.5),
      requestedCalls: maybe(0.08, () => [
        {
          name: pick(['read', 'write']),
          args: maybe(0.7, () => '{"x":1}'),
          id: pick(['c1', 'c2']),
        },
      ]),
      toolCallIds: maybe(0.08, () => [pick(['c1', 'c2', 'c3'])]),
      polling: maybe(0.05, () => true),
    };
    for (const key of Object.keys(facts) as (keyof SpanFacts)[]) {
      if (facts[key] === undefined) delete facts[key];
    }
    const endMs = random() < 0.1 ? null : t + Math.floor(random() * 10);
    spans.push(stored(spanId, parent, `${role} ${k}`, t, endMs, facts, random() < 0.1 ? 1 : 0));
  }
  return spans;
}

function stored(
  spanId: string,
  parentSpanId: string | null,
  name: string,
  startMs: number,
  endMs: number | null,
  facts: SpanFacts,
  trace = 0,
): StoredSpan {
  return {
    traceId: trace === 0 ? 'a'.repeat(32) : 'b'.repeat(32),
    spanId,
    parentSpanId,
    name,
    startMs,
    endMs,
    statusCode: 0,
    statusMessage: '',
    facts,
  };
}

const id = (n: number) => n.toString(16).padStart(16, '0');
