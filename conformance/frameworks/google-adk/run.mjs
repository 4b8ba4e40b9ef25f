// Google ADK JS, unmodified, with its own telemetry set-up (maybeSetOtelProviders, which adds the
// OTLP exporter from the standard OTEL_EXPORTER_OTLP_TRACES_ENDPOINT / _HEADERS variables) and a
// scripted model: a BaseLlm subclass, ADK's extension point for models, answering from the script.
import { captureOrRun } from '../../harness/main.mjs';
import {
  GOALS,
  TOOLS,
  nextTurn,
  letOneDeploySucceed,
  zodParams,
} from '../../harness/scenarios.mjs';
import { MODEL, USAGE } from '../../harness/scripted-openai.mjs';
import { run, times, expectGoal, expectLongInterleaved } from '../../harness/truth.mjs';

// ADK's spans have no loop-cycle span the conventions name (invoke_agent > call_llm > execute_tool),
// so each tool call is a step: the truth counts tool calls, not model calls.
const TOOL_STEPS = (truth) => truth.actions.length;

const coder = (fields) => ({
  runs: [run({ key: 'agent:coder', ...fields, stepCount: fields.actions.length })],
});

const SCENARIOS = [
  {
    name: 'success',
    note: 'Reads README.md, writes it, then answers: three model calls.',
    expect: expectGoal('success', TOOL_STEPS),
  },
  {
    name: 'llm-call-limit',
    note: 'The model asks for the next page forever; RunConfig maxLlmCalls = 4 stops the run when a fifth call is due. ADK reports it only in the event stream (errorMessage "Max number of llm calls limit of 4 exceeded"): the fifth call_llm span is exported empty (no attribute, no status, no exception), so the spans name no reason and the honest reading is unknown.',
    expect: coder({ exitCategory: 'unknown', modelCalls: 4, actions: times(4, 'list_files') }),
  },
  {
    name: 'repeat',
    note: 'search_docs with the same query four times, the same answer each time, then the model gives up.',
    expect: expectGoal('repeat', TOOL_STEPS),
  },
  {
    name: 'oscillation',
    note: 'open_file alternates src/a.ts, src/b.ts, src/a.ts, src/b.ts (A/B/A/B), then the model answers.',
    expect: expectGoal('oscillation', TOOL_STEPS),
  },
  {
    name: 'tool-failures',
    note: 'deploy throws four times in a row, each with another version (1.0.1 to 1.0.4, never the same call twice); each error goes back to the model, which then gives up.',
    expect: expectGoal('tool-failures', TOOL_STEPS),
  },
  {
    name: 'tool-flaky',
    note: 'Control: deploy fails, succeeds, fails (never three failures in a row), then the model answers.',
    expect: expectGoal('tool-flaky', TOOL_STEPS),
  },
  {
    name: 'confirmation',
    note: 'delete_branch has requireConfirmation: true; the run pauses with an adk_request_confirmation request for a person and the tool does not run. Its execute_tool span says so in gcp.vertex.agent.tool_response: {"error":"This tool call requires confirmation, please approve or reject."}.',
    expect: coder({ exitCategory: 'escalated', modelCalls: 1, actions: ['delete_branch'] }),
  },
  {
    name: 'long-interleaved',
    note: 'A 33-call audit (32 distinct read_file calls) runs beside two short agents; BatchSpanProcessor exports batches of at most 5 spans, so the runs arrive interleaved across many requests.',
    env: { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '5', OTEL_BSP_SCHEDULE_DELAY: '20' },
    expect: expectLongInterleaved(
      ['agent:auditor', 'agent:helper_a', 'agent:helper_b'],
      TOOL_STEPS,
    ),
  },
];

async function runScenario(name) {
  // The set-up an ADK user writes (the guide quotes these lines).
  const adk = await import('@google/adk');
  adk.maybeSetOtelProviders();

  const { trace } = await import('@opentelemetry/api');
  const { z } = await import('zod');
  if (name === 'tool-flaky') letOneDeploySucceed();

  class ScriptedLlm extends adk.BaseLlm {
    async *generateContentAsync(request) {
      const user = request.contents.find((c) => c.role === 'user');
      const goal = (user?.parts ?? []).map((p) => p.text ?? '').join(' ');
      const toolResults = request.contents
        .flatMap((c) => c.parts ?? [])
        .filter((p) => p.functionResponse).length;
      const turn = nextTurn(goal, toolResults);
      const parts = turn.toolCalls
        ? turn.toolCalls.map((call, i) => ({
            functionCall: { id: `call_${toolResults}_${i}`, name: call.name, args: call.args },
          }))
        : [{ text: turn.text }];
      yield {
        content: { role: 'model', parts },
        usageMetadata: {
          promptTokenCount: USAGE.input,
          candidatesTokenCount: USAGE.output,
          totalTokenCount: USAGE.input + USAGE.output,
        },
        finishReason: 'STOP',
        turnComplete: true,
      };
    }
    async connect() {
      throw new Error('live mode is not scripted');
    }
  }
  const schema = (params) => zodParams(z, params);
  const tools = Object.entries(TOOLS).map(
    ([toolName, t]) =>
      new adk.FunctionTool({
        name: toolName,
        description: t.description,
        parameters: schema(t.params),
        requireConfirmation: toolName === 'delete_branch',
        execute: async (input) => t.run(input),
      }),
  );
  const call = async (agentName, goal, runConfig = {}) => {
    const agent = new adk.LlmAgent({
      name: agentName,
      model: new ScriptedLlm({ model: MODEL }),
      instruction: 'You are a careful engineer.',
      tools,
    });
    const runner = new adk.InMemoryRunner({ agent, appName: 'conformance' });
    const session = await runner.sessionService.createSession({
      appName: 'conformance',
      userId: 'user',
    });
    let events = 0;
    try {
      for await (const event of runner.runAsync({
        userId: 'user',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: goal }] },
        runConfig,
      })) {
        events += 1;
        if (process.env.DEBUG_ADK) console.log(JSON.stringify(event).slice(0, 300));
      }
      console.log(agentName, 'events', events);
    } catch (error) {
      console.log(agentName, 'threw', error.name, error.message.slice(0, 120));
    }
  };
  if (name === 'long-interleaved') {
    await Promise.all([
      call('auditor', GOALS.long),
      call('helper_a', GOALS['short-a']),
      call('helper_b', GOALS['short-b']),
    ]);
  } else if (name === 'llm-call-limit') {
    await call('coder', GOALS['step-limit'], { maxLlmCalls: 4 });
  } else if (name === 'confirmation') {
    await call('coder', GOALS.approval);
  } else {
    await call('coder', GOALS[name]);
  }
  await trace.getTracerProvider().getDelegate().shutdown();
}

export const CAPTURES = [
  {
    framework: 'google-adk',
    packages: [
      '@google/adk',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/sdk-trace-node',
    ],
    // Traces only: OTEL_EXPORTER_OTLP_ENDPOINT would also turn on ADK's metrics and logs exporters.
    env: (receiver) => ({
      OTEL_EXPORTER_OTLP_ENDPOINT: '',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces`,
    }),
    scenarios: SCENARIOS,
  },
];

await captureOrRun(import.meta, { runScenario, captures: CAPTURES });
