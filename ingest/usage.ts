// Tokens and model of one span. Frameworks may send two names for one count (the current and an
// older convention): the first present wins, so each token is read once.
import { readInteger, readString } from './attributes';
import type { Attributes } from './otlp/types';

export interface Usage {
  inputTokens: number | null;
  outputTokens: number | null;
  cacheReadTokens: number | null;
  model: string | null;
}

export function readUsage(a: Attributes): Usage {
  return {
    inputTokens: readInteger(
      a,
      'gen_ai.usage.input_tokens',
      'gen_ai.usage.prompt_tokens',
      'llm.token_count.prompt',
      'ai.usage.inputTokens',
      'ai.usage.promptTokens',
    ),
    outputTokens: readInteger(
      a,
      'gen_ai.usage.output_tokens',
      'gen_ai.usage.completion_tokens',
      'llm.token_count.completion',
      'ai.usage.outputTokens',
      'ai.usage.completionTokens',
    ),
    cacheReadTokens: readInteger(
      a,
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
