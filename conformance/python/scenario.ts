// What every Python framework's builder takes (a scripted loop) and what a capture promises.
import type { Batch } from './otlp-json';

export interface ToolUse {
  name: string;
  args: Record<string, unknown>;
  result: string;
  /** The tool raised: its message. */
  error?: string;
}

/** One trip round the loop: a model call, and the tool it asked for, if any. */
export interface Turn {
  tool?: ToolUse;
  /** The model's text when it asked for no tool. */
  text?: string;
  inputTokens: number;
  outputTokens: number;
}

export interface ExpectedRun {
  key: string;
  exitCategory: string;
  exitKind: string | null;
  stepCount: number;
  signals: { repeat: boolean; revisit: boolean; stall: boolean; toolCircuit: boolean };
  inputTokens: number;
  outputTokens: number;
  /** Each step's action in step order; null for a step that called no tool. */
  actions: (string | null)[];
  fragment: boolean;
}

export interface Capture {
  framework: string;
  packages: Record<string, string>;
  scenario: string;
  note: string;
  batch: Batch;
  expect: { runs: ExpectedRun[] };
}

export const TURN_MS = 1_000;

export const tokens = (turns: readonly Turn[]) => ({
  inputTokens: turns.reduce((sum, t) => sum + t.inputTokens, 0),
  outputTokens: turns.reduce((sum, t) => sum + t.outputTokens, 0),
});

export const NO_SIGNALS = { repeat: false, revisit: false, stall: false, toolCircuit: false };

/** Turns that read files in the given order, then answer. */
export function readTurns(paths: readonly string[], answer = 'Done.'): Turn[] {
  return [
    ...paths.map((path) => ({
      tool: { name: 'read_file', args: { path }, result: `contents of ${path}` },
      inputTokens: 1200,
      outputTokens: 40,
    })),
    { text: answer, inputTokens: 1500, outputTokens: 60 },
  ];
}

/** Three deploys with different versions that each fail, then the model gives up. */
export function failingDeployTurns(): Turn[] {
  return [
    ...[1, 2, 3].map((version) => ({
      tool: {
        name: 'deploy',
        args: { service: 'orders', version: `1.4.${version}` },
        result: '',
        error: 'deploy rejected: quota exceeded for project orders',
      },
      inputTokens: 1100,
      outputTokens: 30,
    })),
    { text: 'I could not deploy the service.', inputTokens: 1400, outputTokens: 50 },
  ];
}

export const uuid = (seed: number) => {
  const h = seed.toString(16).padStart(12, '0');
  return `5f0c9a1e-3b7d-4c2a-9e11-${h}`;
};
