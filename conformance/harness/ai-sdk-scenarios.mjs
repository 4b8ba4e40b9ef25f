// The app both Vercel AI SDK projects run (v6 and v7; the modules come from the calling project):
// generateText with tools and a stopWhen step limit, over the real OpenAI provider (Chat
// Completions) with a scripted fetch, telemetry on through experimental_telemetry. A step is one
// generateText step (one model call and the tools it asked for).
import { GOALS, TOOLS, letOneDeploySucceed, zodParams } from './scenarios.mjs';
import { MODEL, scriptedOpenAIFetch } from './scripted-openai.mjs';
import { run, times, expectGoal, expectLongInterleaved } from './truth.mjs';

const one = (fields) => ({ runs: [run({ key: 'agent:coder', ...fields })] });

export const AI_SDK_SCENARIOS = [
  {
    name: 'success',
    note: 'Reads README.md, writes it, then answers: three steps, the last with finishReason stop.',
    expect: expectGoal('success'),
  },
  {
    name: 'step-limit',
    note: 'The model asks for the next page forever; stopWhen: stepCountIs(4) ends generateText after four steps, the last with finishReason tool-calls. The SDK names no stop condition; a run that ends right after a model asked for tools, with those tools run, ended on its step limit.',
    expect: one({
      exitCategory: 'budget_exhausted',
      exitKind: 'steps',
      stepCount: 4,
      modelCalls: 4,
      actions: times(4, 'list_files'),
    }),
  },
  {
    name: 'repeat',
    note: 'search_docs with the same query four times, the same answer each time, then the model gives up.',
    expect: expectGoal('repeat'),
  },
  {
    name: 'oscillation',
    note: 'open_file alternates src/a.ts, src/b.ts, src/a.ts, src/b.ts (A/B/A/B), then the model answers.',
    expect: expectGoal('oscillation'),
  },
  {
    name: 'tool-failures',
    note: 'deploy throws four times in a row, each with another version; the SDK hands each tool-error to the model, which then gives up.',
    expect: expectGoal('tool-failures'),
  },
  {
    name: 'tool-flaky',
    note: 'Control: deploy fails, succeeds, fails (never three failures in a row), then the model answers.',
    expect: expectGoal('tool-flaky'),
  },
  {
    name: 'approval',
    note: 'delete_branch has needsApproval: true; generateText returns after the first step with a tool-approval-request and the tool never runs. The spans name nothing of the approval: they end like the step limit (last finishReason tool-calls), except that the requested tool has no span. The honest reading is unknown.',
    expect: one({
      exitCategory: 'unknown',
      stepCount: 1,
      modelCalls: 1,
      actions: ['delete_branch'],
    }),
  },
  {
    name: 'long-interleaved',
    note: 'A 33-step audit (32 distinct read_file calls) runs beside two short calls; BatchSpanProcessor exports batches of at most 5 spans, so the runs arrive interleaved across many requests.',
    env: { OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '5', OTEL_BSP_SCHEDULE_DELAY: '20' },
    expect: expectLongInterleaved(),
  },
];

/** @param {object} deps { generateText, tool, stepCountIs, z, createOpenAI } of the calling project */
export async function runAiSdkScenario(name, deps) {
  const { generateText, tool, stepCountIs, z, createOpenAI } = deps;
  if (name === 'tool-flaky') letOneDeploySucceed();
  const schema = (params) => zodParams(z, params);
  const tools = Object.fromEntries(
    Object.entries(TOOLS).map(([toolName, t]) => [
      toolName,
      tool({
        description: t.description,
        inputSchema: schema(t.params),
        needsApproval: toolName === 'delete_branch',
        execute: async (input) => t.run(input),
      }),
    ]),
  );
  const openai = createOpenAI({ apiKey: 'sk-scripted', fetch: scriptedOpenAIFetch() });
  const call = async (functionId, goal, maxSteps = 20) => {
    const result = await generateText({
      model: openai.chat(MODEL),
      tools,
      prompt: goal,
      stopWhen: stepCountIs(maxSteps),
      experimental_telemetry: { isEnabled: true, functionId },
    });
    console.log(functionId, 'steps', result.steps.length, 'finish', result.finishReason);
  };
  if (name === 'long-interleaved') {
    await Promise.all([
      call('auditor', GOALS.long, 40),
      call('helper-a', GOALS['short-a']),
      call('helper-b', GOALS['short-b']),
    ]);
  } else if (name === 'step-limit') {
    await call('coder', GOALS['step-limit'], 4);
  } else {
    await call('coder', GOALS[name]);
  }
}
