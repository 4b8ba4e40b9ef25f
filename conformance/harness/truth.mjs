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
