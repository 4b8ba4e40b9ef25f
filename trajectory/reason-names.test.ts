import { describe, expect, it } from 'vitest';
import { reasonNamedInText } from './reason-names';

describe('reasonNamedInText', () => {
  it.each([
    // OpenAI Agents JS through OpenInference: the name sits inside JSON text in the message.
    [
      'Error in agent run: {"error":"MaxTurnsExceededError: Max turns (4) exceeded"}',
      'MaxTurnsExceededError',
    ],
    [
      'Error in agent run: {"error":"InputGuardrailTripwireTriggered: Input guardrail triggered: {\\"reason\\":\\"x\\"}"}',
      'InputGuardrailTripwireTriggered',
    ],
    // LangGraph JS: the interrupt's payload comes first, its name after it.
    [
      '[\n  {\n    "id": "dcfa",\n    "value": {"question": "Delete?"}\n  }\n]\n\nGraphInterrupt: [{"id":"dcfa"}]',
      'GraphInterrupt',
    ],
    [
      'agents.exceptions.MaxTurnsExceeded: Max turns (3) exceeded',
      'agents.exceptions.MaxTurnsExceeded',
    ],
    ['boom: OutputGuardrailTripwireTriggered', 'OutputGuardrailTripwireTriggered'],
  ])('finds the name in %j', (text, name) => {
    expect(reasonNamedInText(text)).toBe(name);
  });

  it.each([
    'Error in agent run: something broke',
    'Error: connection reset',
    'deploy of 1.0.1 failed: cluster unreachable',
    'Exception: ',
    '{"error": 42}',
    '{not json',
    '',
  ])('names nothing in %j', (text) => {
    expect(reasonNamedInText(text)).toBeNull();
  });

  it('a wrapper name is passed over for the one it wraps', () => {
    expect(reasonNamedInText('Error: {"error":"TimeoutError: took 31s"}')).toBe('TimeoutError');
  });
});
