// The second-wave conventions of docs/conventions.md, one by one: polls, retries, loop hazards,
// ignored argument fields and the spend a first signal wastes.
import { describe, expect, it } from 'vitest';
import { canonicalActionHash } from './canonical-hash';
import { deriveRun } from './derive-run';
import type { RunInput } from './derive-run';
import type { ErrorClass } from './step';
import { step } from './test-steps';

const ended: RunInput = {
  ended: true,
  exitReason: { raw: 'model_stopped', source: 'attribute' },
  exitDetail: null,
  verified: null,
  verifiedUnits: null,
  progressDirection: 'down',
};
const repeats = (run: ReturnType<typeof step>[], options = {}) =>
  deriveRun(ended, run, options).steps.map((s) => s.repeatOf);

describe('polls: waiting is not looping', () => {
  const polls = () => [
    step(1, { action: 'deploy', actionHash: 'deploy', resultHash: 'started' }),
    step(2, { action: 'job_status', actionHash: 'status', resultHash: 'running' }),
    step(3, { action: 'job_status', actionHash: 'status', resultHash: 'running' }),
    step(4, { action: 'job_status', actionHash: 'status', resultHash: 'running' }),
  ];

  it('the same status call from an unchanged state is a repeat, unless the tool polls', () => {
    expect(repeats(polls())).toEqual([null, null, 2, 3]);
    expect(repeats(polls(), { pollingTools: ['job_status'] })).toEqual([null, null, null, null]);
  });

  it('a step can say it polls itself (loop.action.polling)', () => {
    const run = polls().map((s) => (s.action === 'job_status' ? { ...s, polling: true } : s));
    expect(repeats(run)).toEqual([null, null, null, null]);
  });

  it('polls still count for tool circuits', () => {
    const run = [1, 2, 3].map((k) =>
      step(k, { action: 'health', actionHash: 'health', errorClass: 'transient', polling: true }),
    );
    expect(deriveRun(ended, run).flags.toolCircuit).toEqual({ step: 3, tool: 'health' });
  });
});

describe('a retry after a transient failure is not a repeat', () => {
  const attempts = (classes: (ErrorClass | null)[]) =>
    classes.map((errorClass, k) =>
      step(k + 1, { action: 'fetch', actionHash: 'fetch', resultHash: 'same', errorClass }),
    );

  it('the call right after it failed transiently is a retry', () => {
    expect(repeats(attempts(['transient', null]))).toEqual([null, null]);
  });

  it('the third identical attempt after two identical transient failures is a repeat', () => {
    expect(repeats(attempts(['transient', 'transient', null]))).toEqual([null, null, 2]);
  });

  it('two failures of different classes are no loop hazard', () => {
    expect(repeats(attempts(['permission', 'transient', null]))).toEqual([null, null, null]);
  });

  it('without the failures, the same call again from the same state is a repeat as ever', () => {
    const run = [1, 2].map((k) => step(k, { actionHash: 'fetch', resultHash: 'same' }));
    expect(repeats(run)).toEqual([null, 1]);
  });
});

describe('ignoreArgs: request ids and timestamps out of the action hash', () => {
  it('drops the named fields at any depth, and only them', () => {
    const a = { q: 'x', request_id: 'r1', meta: { ts: 1, page: 2 }, list: [{ ts: 5, k: 1 }] };
    const b = { q: 'x', request_id: 'r2', meta: { ts: 9, page: 2 }, list: [{ ts: 7, k: 1 }] };
    expect(canonicalActionHash('search', a)).not.toBe(canonicalActionHash('search', b));
    const ignore = ['request_id', 'ts'];
    expect(canonicalActionHash('search', JSON.stringify(a), ignore)).toBe(
      canonicalActionHash('search', b, ignore),
    );
    expect(canonicalActionHash('search', { ...b, meta: { ts: 9, page: 3 } }, ignore)).not.toBe(
      canonicalActionHash('search', a, ignore),
    );
    // Nothing ignored: the hash is the one harnesses already compute.
    expect(canonicalActionHash('search', a, [])).toBe(canonicalActionHash('search', a));
  });
});

describe('wasted spend', () => {
  it('includes the step that carries the first signal: a run stopped at its first repeat wasted that call', () => {
    const run = [
      step(1, { actionHash: 'search', resultHash: 'r', costUsd: 0.01 }),
      step(2, { actionHash: 'search', resultHash: 'r', costUsd: 0.02 }),
    ];
    const derived = deriveRun(ended, run);
    expect(derived.flags.repeat).toEqual({ step: 2, of: 1 });
    expect(derived.wastedUsd).toBeCloseTo(0.02, 12);
  });
});
