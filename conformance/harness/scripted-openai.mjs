// A scripted OpenAI Chat Completions endpoint behind the real provider client: a `fetch` that
// answers each request from a script instead of the network, streamed (SSE) or not, with the
// usage numbers the script states, so every scenario's tokens are known exactly.

import { nextTurn, readOpenAIChat } from './scenarios.mjs';

const nextTurnOfChat = (messages) => {
  const { goal, toolResults } = readOpenAIChat(messages);
  return nextTurn(goal, toolResults);
};

export const MODEL = 'gpt-4o';
export const USAGE = { input: 100, output: 10 };

/** Answers each chat completion with the scenario script's next turn (see scenarios.mjs). */
export function scriptedOpenAIFetch(script = (body) => nextTurnOfChat(body.messages)) {
  let index = 0;
  let toolCallId = 0;
  return async (input, init) => {
    const url = typeof input === 'string' ? input : (input.url ?? String(input));
    const body = JSON.parse(
      typeof init?.body === 'string' ? init.body : await new Response(init?.body).text(),
    );
    if (!url.endsWith('/chat/completions')) {
      return new Response(JSON.stringify({ error: { message: `not scripted: ${url}` } }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    index += 1;
    const turn = script(body);
    const toolCalls = (turn.toolCalls ?? []).map((call) => ({
      id: `call_${++toolCallId}`,
      type: 'function',
      function: { name: call.name, arguments: JSON.stringify(call.args) },
    }));
    const finishReason = toolCalls.length ? 'tool_calls' : 'stop';
    const usage = {
      prompt_tokens: USAGE.input,
      completion_tokens: USAGE.output,
      total_tokens: USAGE.input + USAGE.output,
    };
    const id = `chatcmpl-${index}`;
    const created = Math.floor(Date.now() / 1000);
    const message = {
      role: 'assistant',
      content: toolCalls.length ? null : (turn.text ?? ''),
      ...(toolCalls.length ? { tool_calls: toolCalls } : {}),
    };
    if (!body.stream) {
      return new Response(
        JSON.stringify({
          id,
          object: 'chat.completion',
          created,
          model: MODEL,
          choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
          usage,
        }),
        { status: 200, headers: { 'content-type': 'application/json' } },
      );
    }
    const chunk = (choices, extra = {}) =>
      `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: MODEL, choices, ...extra })}\n\n`;
    const events = [];
    if (toolCalls.length) {
      events.push(
        chunk([
          {
            index: 0,
            delta: {
              role: 'assistant',
              content: null,
              tool_calls: toolCalls.map((call, i) => ({ index: i, ...call })),
            },
            finish_reason: null,
          },
        ]),
      );
    } else {
      events.push(
        chunk([
          { index: 0, delta: { role: 'assistant', content: message.content }, finish_reason: null },
        ]),
      );
    }
    events.push(chunk([{ index: 0, delta: {}, finish_reason: finishReason }]));
    events.push(chunk([], { usage }));
    events.push('data: [DONE]\n\n');
    return new Response(events.join(''), {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
    });
  };
}

/** Total tokens of `calls` scripted model calls. */
export const tokens = (calls) => ({
  inputTokens: calls * USAGE.input,
  outputTokens: calls * USAGE.output,
});
