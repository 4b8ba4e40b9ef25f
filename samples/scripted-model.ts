// A model without a network: its decisions come from a script, its bill from arithmetic. What it
// says is decided by the sample; what that costs grows with the conversation, as it does for a
// real model: every turn re-reads the whole context, most of it from the provider's cache.
import type { LoopStep } from '../kit/index';
import type { Random, VirtualClock } from './random';

export interface ModelProfile {
  model: string;
  provider: string;
  /** System prompt and tool schemas: the context before the first turn. */
  baseTokens: number;
  /** Hidden reasoning tokens per turn (billed as output), as [min, max]. */
  reasoningTokens: [number, number];
  /** Time to first token and per output token. */
  firstTokenMs: number;
  msPerOutputToken: number;
  /** Whether the provider serves the repeated prefix from its prompt cache. */
  promptCache: boolean;
}

// Models of prices.json, so Loopscope prices every call.
export const MODELS = {
  'gpt-4.1': {
    model: 'gpt-4.1',
    provider: 'openai',
    baseTokens: 1_800,
    reasoningTokens: [0, 0],
    firstTokenMs: 600,
    msPerOutputToken: 12,
    promptCache: true,
  },
  'gpt-4o-mini': {
    model: 'gpt-4o-mini',
    provider: 'openai',
    baseTokens: 900,
    reasoningTokens: [0, 0],
    firstTokenMs: 350,
    msPerOutputToken: 8,
    promptCache: true,
  },
  'o4-mini': {
    model: 'o4-mini',
    provider: 'openai',
    baseTokens: 2_600,
    reasoningTokens: [300, 1_400],
    firstTokenMs: 1_200,
    msPerOutputToken: 7,
    promptCache: true,
  },
  'claude-sonnet-4': {
    model: 'claude-sonnet-4',
    provider: 'anthropic',
    baseTokens: 12_000,
    reasoningTokens: [0, 0],
    firstTokenMs: 900,
    msPerOutputToken: 14,
    promptCache: true,
  },
  'gemini-2.5-flash': {
    model: 'gemini-2.5-flash',
    provider: 'gcp.gemini',
    baseTokens: 2_100,
    reasoningTokens: [100, 600],
    firstTokenMs: 500,
    msPerOutputToken: 4,
    promptCache: false,
  },
} as const satisfies Record<string, ModelProfile>;

/** About four characters a token, as tokenizers average on English and code. */
export function tokensOf(value: unknown): number {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
  return Math.ceil(text.length / 4);
}

export class ScriptedModel {
  private context: number;
  private cachedPrefix = 0;

  constructor(
    readonly profile: ModelProfile,
    private readonly rng: Random,
    private readonly clock: VirtualClock,
  ) {
    this.context = profile.baseTokens;
  }

  /** The assembled context the next turn will read, in tokens. */
  get contextTokens(): number {
    return this.context;
  }

  /** Something the loop appends to the conversation: a tool's output, a check's feedback. */
  hear(tokens: number): void {
    this.context += tokens + 8; // message framing
  }

  /**
   * One turn: the model reads the whole context and answers with `reply` (the script's choice),
   * recorded as a chat span inside the step with its tokens and latency.
   */
  async answer<T>(step: LoopStep, reply: T, finishReason: 'tool_calls' | 'stop'): Promise<T> {
    const inputTokens = this.context;
    const cacheReadTokens = this.profile.promptCache ? this.cachedPrefix : 0;
    const visible = tokensOf(reply) + this.rng.int(20, 90);
    const [low, high] = this.profile.reasoningTokens;
    const outputTokens = visible + this.rng.int(low, high);
    const answered = await step.callLlm(
      { model: this.profile.model, provider: this.profile.provider },
      () => {
        this.clock.advance(
          this.profile.firstTokenMs * (0.7 + this.rng.next() * 0.8) +
            outputTokens * this.profile.msPerOutputToken,
        );
        return reply;
      },
      () => ({ inputTokens, outputTokens, cacheReadTokens, finishReason }),
    );
    this.cachedPrefix = inputTokens;
    this.context += visible;
    return answered;
  }
}
