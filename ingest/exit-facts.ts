// Where a span says why the loop stopped. The reason can hide in an attribute, in a finish or
// stop reason (attribute or `gen_ai.choice` event), or in an exception event.
import { readString, readStructured } from './attributes';
import type { Attributes, OtlpEvent } from './otlp/types';

export interface ExitFacts {
  exitReason: string | null;
  exitDetail: string | null;
  finishReason: string | null;
  exceptionType: string | null;
  exceptionMessage: string | null;
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

export function readExitFacts(span: { attributes: Attributes; events: OtlpEvent[] }): ExitFacts {
  const a = span.attributes;
  const exception = lastException(span.events);
  return {
    exitReason: readString(a, 'loop.exit.reason', 'gen_ai.agent.finish_reason'),
    exitDetail: readString(a, 'loop.exit.detail') ?? exception?.message ?? null,
    finishReason: readFinishReason(a) ?? eventFinishReason(span.events),
    exceptionType: exception?.type ?? null,
    exceptionMessage: exception?.message ?? null,
  };
}

function readFinishReason(a: Attributes): string | null {
  for (const key of FINISH_REASON_KEYS) {
    const value = readStructured(a, key);
    const reason = Array.isArray(value) ? value[value.length - 1] : value;
    if (typeof reason === 'string' && reason.trim() !== '') return reason.trim();
  }
  return null;
}

function eventFinishReason(events: OtlpEvent[]): string | null {
  for (let k = events.length - 1; k >= 0; k--) {
    const event = events[k];
    if (!event || event.name !== 'gen_ai.choice') continue;
    const reason = readString(event.attributes, 'finish_reason', 'gen_ai.response.finish_reason');
    if (reason) return reason;
  }
  return null;
}

function lastException(events: OtlpEvent[]): { type: string; message: string | null } | null {
  for (let k = events.length - 1; k >= 0; k--) {
    const event = events[k];
    if (!event || event.name !== 'exception') continue;
    const type = readString(event.attributes, 'exception.type');
    const message = readString(event.attributes, 'exception.message');
    if (type) return { type, message };
    if (message) return { type: message.split(':')[0]?.trim() || 'exception', message };
  }
  return null;
}
