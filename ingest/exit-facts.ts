// Where a span says why the loop stopped. The reason can hide in an attribute, in a finish or
// stop reason (attribute, `gen_ai.choice` event, `finish_reason` inside `gen_ai.output.messages`
// on the span or its `gen_ai.client.inference.operation.details` events), in an exception event
// (its type, or a name inside its message text), or in a framework's own marks (a tripped
// guardrail, a tool that waits for approval).
import { reasonNamedInText } from '../trajectory/reason-names';
import { getOwn, readBoolean, readString, readStructured } from './attributes';
import type { Attributes, OtlpEvent } from './otlp/types';

export interface ExitFacts {
  exitReason: string | null;
  exitDetail: string | null;
  finishReason: string | null;
  exceptionType: string | null;
  exceptionMessage: string | null;
  namedReason: string | null;
}

const FINISH_REASON_KEYS = [
  'gen_ai.response.finish_reasons',
  'gen_ai.response.finish_reason',
  'ai.response.finishReason',
  'llm.finish_reason',
  'finish_reason',
  'stop_reason',
  'gen_ai.event.stop_reason',
];

const OPERATION_DETAILS = 'gen_ai.client.inference.operation.details';

export function readExitFacts(span: { attributes: Attributes; events: OtlpEvent[] }): ExitFacts {
  const a = span.attributes;
  const exception = lastException(span.events);
  const finish =
    readFinishReason(a) ??
    messagesFinishReason(readStructured(a, 'gen_ai.output.messages')) ??
    eventFinishReason(span.events) ??
    responsesFinishReason(readStructured(a, 'output.value'));
  return {
    exitReason: readString(a, 'loop.exit.reason', 'gen_ai.agent.finish_reason'),
    exitDetail: readString(a, 'loop.exit.detail') ?? exception?.message ?? null,
    finishReason: adkAskedForTools(a) && finish?.toLowerCase() === 'stop' ? 'tool_calls' : finish,
    exceptionType: exception?.type ?? null,
    exceptionMessage: exception?.message ?? null,
    namedReason: readNamedReason(a),
  };
}

// Google ADK says `stop` on every model call, even one that asked for a tool: a call that asked
// for a tool did not stop the loop.
function adkAskedForTools(a: Attributes): boolean {
  const parts = getOwn(
    getOwn(readStructured(a, 'gcp.vertex.agent.llm_response'), 'content'),
    'parts',
  );
  return Array.isArray(parts) && parts.some((part) => getOwn(part, 'functionCall') !== undefined);
}

function readFinishReason(a: Attributes): string | null {
  for (const key of FINISH_REASON_KEYS) {
    const value = readStructured(a, key);
    const reason = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof reason === 'string' && reason.trim() !== '') return reason.trim();
  }
  return null;
}

/** The last message's `finish_reason` in OTel GenAI's latest `gen_ai.output.messages`. */
function messagesFinishReason(messages: unknown): string | null {
  if (!Array.isArray(messages)) return null;
  for (let k = messages.length - 1; k >= 0; k--) {
    const reason = getOwn(messages[k], 'finish_reason');
    if (typeof reason === 'string' && reason.trim() !== '') return reason.trim();
  }
  return null;
}

function eventFinishReason(events: OtlpEvent[]): string | null {
  for (let k = events.length - 1; k >= 0; k--) {
    const event = events[k];
    if (!event) continue;
    if (event.name === 'gen_ai.choice') {
      const reason = readString(event.attributes, 'finish_reason', 'gen_ai.response.finish_reason');
      if (reason) return reason;
    } else if (event.name === OPERATION_DETAILS) {
      const reason =
        readFinishReason(event.attributes) ??
        messagesFinishReason(readStructured(event.attributes, 'gen_ai.output.messages'));
      if (reason) return reason;
    }
  }
  return null;
}

/**
 * OpenAI's Responses API as OpenInference records it (OpenAI Agents Python): no finish reason,
 * only the response in `output.value`. A function call in its output asks for a tool; a message
 * without one is the model's answer.
 */
function responsesFinishReason(response: unknown): string | null {
  const output = getOwn(response, 'output');
  if (!Array.isArray(output) || getOwn(response, 'object') === 'chat.completion') return null;
  const types = output.map((item) => getOwn(item, 'type'));
  if (types.includes('function_call')) return 'tool_calls';
  const incomplete = getOwn(getOwn(response, 'incomplete_details'), 'reason');
  if (typeof incomplete === 'string') return incomplete;
  return types.includes('message') ? 'stop' : null;
}

const CONFIRMATION = /requires? (confirmation|approval)/i;

function readNamedReason(a: Attributes): string | null {
  // OpenInference GUARDRAIL spans (OpenAI Agents): the guardrail that stopped the run.
  if (readBoolean(a, 'guardrail.triggered') === true) return 'guardrail';
  // PydanticAI: a deferred tool call (ApprovalRequired, CallDeferred) waits for a person.
  const deferral = readString(a, 'pydantic_ai.tool.deferral.name');
  if (deferral !== null) return deferral;
  // Google ADK requireConfirmation: the tool answers with an error that asks for approval.
  const adkError = getOwn(readStructured(a, 'gcp.vertex.agent.tool_response'), 'error');
  if (typeof adkError === 'string' && CONFIRMATION.test(adkError)) return 'pending_approval';
  return null;
}

const GENERIC_TYPES = new Set(['error', 'exception']);

function lastException(events: OtlpEvent[]): { type: string; message: string | null } | null {
  for (let k = events.length - 1; k >= 0; k--) {
    const event = events[k];
    if (!event || event.name !== 'exception') continue;
    const type = readString(event.attributes, 'exception.type');
    const message = readString(event.attributes, 'exception.message');
    const named = message === null ? null : reasonNamedInText(message);
    if (type && !(GENERIC_TYPES.has(type.trim().toLowerCase()) && named)) return { type, message };
    if (named) return { type: named, message };
    if (message) return { type: message.split(':')[0]?.trim() || 'exception', message };
  }
  return null;
}
