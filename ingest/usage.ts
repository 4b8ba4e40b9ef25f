// Tokens and model of one span. Frameworks may send two names for one count (the current and an
// older convention): the first present wins, so each token is read once.
import { readString } from './attributes';
import type { Attributes } from './otlp/types';
import { BOUNDS, readBoundedNumber } from './value-bounds';
import type { ValueProblem } from './value-bounds';

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  model: string | null;
}

export function readUsage(a: Attributes, problems: ValueProblem[] = []): Usage {
  const tokens = (...keys: string[]) => readBoundedNumber(a, keys, BOUNDS.tokens, problems);
  return {
    inputTokens: tokens(
      'gen_ai.usage.input_tokens',
      'gen_ai.usage.prompt_tokens',
      'llm.token_count.prompt',
      'ai.usage.inputTokens',
      'ai.usage.promptTokens',
    ),
    outputTokens: tokens(
      'gen_ai.usage.output_tokens',
      'gen_ai.usage.completion_tokens',
      'llm.token_count.completion',
      'ai.usage.outputTokens',
      'ai.usage.completionTokens',
    ),
    cacheReadTokens: tokens(
      'gen_ai.usage.cache_read.input_tokens',
      'gen_ai.usage.cache_read_input_tokens',
      'llm.token_count.prompt_details.cache_read',
      'ai.usage.cachedInputTokens',
    ),
    model: readString(
      a,
      'gen_ai.response.model',
      'gen_ai.request.model',
      'llm.model_name',
      'ai.response.model',
      'ai.model.id',
    ),
  };
}
