// Helpers to state a scenario's ground truth in capture.json's `expect` shape.
import { MODEL, USAGE } from './scripted-openai.mjs';

export const NO_SIGNALS = { repeat: false, revisit: false, stall: false, toolCircuit: false };

/** gpt-4o at the test price table's rates (2.5 / 10 USD per million input / output tokens). */
const PRICE = { input: 2.5e-6, output: 10e-6 };

/**
 * One expected run. `modelCalls` gives the tokens (each scripted call reports USAGE) and the
 * spend; `signals` lists only those that must be present (the others must be absent).
 */
export function run({
  key,
  exitCategory,
  exitKind = null,
  stepCount,
  modelCalls,
  actions,
  signals = {},
  fragment = false,
  note,
}) {
  const inputTokens = modelCalls * USAGE.input;
  const outputTokens = modelCalls * USAGE.output;
  return {
    key,
    exitCategory,
    exitKind,
    stepCount,
    signals: { ...NO_SIGNALS, ...signals },
    inputTokens,
    outputTokens,
    costUsd: Number((inputTokens * PRICE.input + outputTokens * PRICE.output).toFixed(8)),
    model: MODEL,
    actions,
    fragment,
    ...(note ? { note } : {}),
  };
}

export const times = (n, action) => Array.from({ length: n }, () => action);

/**
 * What each shared goal (scenarios.mjs) does, whatever framework runs it: how it ends, its model
 * calls, actions and signals. How many steps that makes is the framework's own reading.
 */
export const GOAL_TRUTH = {
  success: { exitCategory: 'model_stopped', modelCalls: 3, actions: ['read_file', 'write_file'] },
  repeat: {
    exitCategory: 'model_stopped',
    modelCalls: 5,
    actions: times(4, 'search_docs'),
    signals: { repeat: true },
  },
  oscillation: {
    exitCategory: 'model_stopped',
    modelCalls: 5,
    actions: times(4, 'open_file'),
    signals: { revisit: true },
  },
  'tool-failures': {
    exitCategory: 'model_stopped',
    modelCalls: 5,
    actions: times(4, 'deploy'),
    signals: { toolCircuit: true },
  },
  'tool-flaky': { exitCategory: 'model_stopped', modelCalls: 4, actions: times(3, 'deploy') },
  long: { exitCategory: 'model_stopped', modelCalls: 33, actions: times(32, 'read_file') },
  'short-a': { exitCategory: 'model_stopped', modelCalls: 2, actions: ['read_file'] },
  'short-b': { exitCategory: 'model_stopped', modelCalls: 3, actions: ['read_file', 'write_file'] },
};

/** The steps a framework makes of a goal's truth: one per model call unless it says otherwise. */
export const STEP_PER_MODEL_CALL = (truth) => truth.modelCalls;

/** The truth of the coder agent's run of `goal`. */
export const expectGoal = (goal, steps = STEP_PER_MODEL_CALL) => ({
  runs: [goalRun(goal, 'agent:coder', steps)],
});

/** The truth of the long audit beside two short agents, under the agents' keys as named. */
export const expectLongInterleaved = (
  keys = ['agent:auditor', 'agent:helper-a', 'agent:helper-b'],
  steps = STEP_PER_MODEL_CALL,
) => ({
  runs: ['long', 'short-a', 'short-b'].map((goal, i) => goalRun(goal, keys[i], steps)),
});

function goalRun(goal, key, steps) {
  const truth = GOAL_TRUTH[goal];
  return run({ key, ...truth, stepCount: steps(truth) });
}
