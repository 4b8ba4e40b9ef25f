// LLM and tool calls as child spans in the OpenTelemetry GenAI conventions, so any GenAI-aware
// backend reads them too; Loopscope rolls their tokens up into the enclosing step.
import type { Attributes } from '@opentelemetry/api';
import type { ErrorClass } from '../trajectory/step';

export interface TokenUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Input tokens served from the provider's prompt cache (part of inputTokens). */
  cacheReadTokens?: number;
}

export interface LlmCall extends TokenUsage {
  /** `gen_ai.request.model`; it is also what Loopscope prices the tokens by. */
  model: string;
  /** `gen_ai.provider.name`: openai, anthropic, gcp.gemini, ... */
  provider?: string;
  /** `gen_ai.response.model` when the provider answered with a dated or routed name. */
  responseModel?: string;
  /** `gen_ai.response.finish_reasons`: stop, tool_calls, length, ... */
  finishReason?: string;
  /** Explicit cost, where the harness knows it better than a price table. */
  costUsd?: number;
}

export interface ToolFailure {
  message: string;
  /** `loop.error.class`: transient, malformed, precondition, permission, loop_hazard. */
  errorClass?: ErrorClass;
  /** `error.type`: the exception name or status, e.g. `PermissionDenied`, `503`. */
  type?: string;
}

export interface ToolCall {
  name: string;
  args?: unknown;
  result?: unknown;
  callId?: string;
  error?: ToolFailure;
}

/** JSON for structured values, the string itself for text; never throws. */
export function toText(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

export function usageAttributes(usage: TokenUsage): Attributes {
  const attributes: Attributes = {};
  if (usage.inputTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = usage.inputTokens;
  if (usage.outputTokens !== undefined)
    attributes['gen_ai.usage.output_tokens'] = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined)
    attributes['gen_ai.usage.cache_read.input_tokens'] = usage.cacheReadTokens;
  return attributes;
}

export function llmAttributes(call: LlmCall): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': call.model,
    'gen_ai.response.model': call.responseModel ?? call.model,
    ...usageAttributes(call),
  };
  if (call.provider !== undefined) attributes['gen_ai.provider.name'] = call.provider;
  if (call.finishReason !== undefined)
    attributes['gen_ai.response.finish_reasons'] = [call.finishReason];
  if (call.costUsd !== undefined) attributes['loop.cost_usd'] = call.costUsd;
  return attributes;
}

export function toolAttributes(call: ToolCall): Attributes {
  const attributes: Attributes = {
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': call.name,
    'gen_ai.tool.type': 'function',
  };
  if (call.callId !== undefined) attributes['gen_ai.tool.call.id'] = call.callId;
  if (call.args !== undefined) attributes['gen_ai.tool.call.arguments'] = toText(call.args);
  if (call.result !== undefined) attributes['gen_ai.tool.call.result'] = toText(call.result);
  if (call.error?.type !== undefined) attributes['error.type'] = call.error.type;
  if (call.error?.errorClass !== undefined) attributes['loop.error.class'] = call.error.errorClass;
  return attributes;
}
