// The LangGraph app both LangGraph projects run (the modules come from the calling project, so
// each uses its own installed packages): a prebuilt ReAct agent (createReactAgent) over the real
// ChatOpenAI client with a scripted fetch, and the truth of each scenario in LangGraph's terms.
// A step is a super-step (one node run: `agent` or `tools`, langgraph_step in the metadata), so
// a loop of n tool calls and a final answer is 2n + 1 steps.
import { GOALS, TOOLS, letOneDeploySucceed, zodParams } from './scenarios.mjs';
import { MODEL, scriptedOpenAIFetch } from './scripted-openai.mjs';
import { run, times, expectGoal, expectLongInterleaved } from './truth.mjs';

// A LangGraph step is a super-step: agent, tools, agent, ... so 2n - 1 for n model calls.
const SUPER_STEPS = (truth) => 2 * truth.modelCalls - 1;

const one = (fields) => ({ runs: [run({ key: 'agent:coder', ...fields })] });

export const LANGGRAPH_SCENARIOS = [
  {
    name: 'success',
    note: 'Reads README.md, writes it, then answers: agent, tools, agent, tools, agent (5 super-steps).',
    expect: expectGoal('success', SUPER_STEPS),
  },
  {
    name: 'recursion-limit',
    note: 'The model asks for the next page forever; recursionLimit = 8 stops the graph after 8 super-steps with GraphRecursionError.',
    expect: one({
      exitCategory: 'budget_exhausted',
      exitKind: 'steps',
      stepCount: 8,
      modelCalls: 4,
      actions: times(4, 'list_files'),
    }),
  },
  {
    name: 'repeat',
    note: 'search_docs with the same query four times, the same answer each time, then the model gives up.',
    expect: expectGoal('repeat', SUPER_STEPS),
  },
  {
    name: 'oscillation',
    note: 'open_file alternates src/a.ts, src/b.ts, src/a.ts, src/b.ts (A/B/A/B), then the model answers.',
    expect: expectGoal('oscillation', SUPER_STEPS),
  },
  {
    name: 'tool-failures',
    note: 'deploy throws four times in a row, each with another version; ToolNode turns each error into an error ToolMessage and the model then gives up.',
    expect: expectGoal('tool-failures', SUPER_STEPS),
  },
  {
    name: 'tool-flaky',
    note: 'Control: deploy fails, succeeds, fails (never three failures in a row), then the model answers.',
    expect: expectGoal('tool-flaky', SUPER_STEPS),
  },
  {
    name: 'interrupt',
    note: 'delete_branch calls interrupt() to ask a person (MemorySaver checkpointer); the graph stops after the tools super-step and waits (result.__interrupt__).',
    expect: one({
      exitCategory: 'escalated',
      stepCount: 2,
      modelCalls: 1,
      actions: ['delete_branch'],
    }),
  },
  {
    name: 'long-interleaved',
    note: 'A 65-super-step audit (32 distinct read_file calls) runs beside two short agents; BatchSpanProcessor exports batches of at most 10 spans, so the runs arrive interleaved across many requests. (With batches of 5, the shutdown flush of the many LangGraph spans overran the 30 concurrent exports: "Concurrent export limit reached".)',
    env: {
      OTEL_BSP_MAX_EXPORT_BATCH_SIZE: '10',
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OTEL_SPAN_ATTRIBUTE_COUNT_LIMIT: '1000',
    },
    expect: expectLongInterleaved(undefined, SUPER_STEPS),
  },
];

/**
 * @param {string} name the scenario
 * @param {object} deps modules of the calling project: { createReactAgent, ChatOpenAI, tool, z, MemorySaver, interrupt }
 * @param {(agentName: string, invoke: () => Promise<unknown>) => Promise<unknown>} wrap
 *   runs one invocation, inside an app span or not
 */
export async function runLangGraphScenario(name, deps, wrap = (_, invoke) => invoke()) {
  const { createReactAgent, ChatOpenAI, tool, z, MemorySaver, interrupt } = deps;
  if (name === 'tool-flaky') letOneDeploySucceed();
  const schema = (params) => zodParams(z, params);
  const tools = Object.entries(TOOLS).map(([toolName, t]) =>
    tool(
      async (input) => {
        if (toolName === 'delete_branch') {
          const answer = interrupt({
            question: `Delete branch ${input.name}?`,
            tool: toolName,
            args: input,
          });
          if (answer !== 'yes') return 'not approved';
        }
        return t.run(input);
      },
      { name: toolName, description: t.description, schema: schema(t.params) },
    ),
  );
  const llm = new ChatOpenAI({
    model: MODEL,
    apiKey: 'sk-scripted',
    configuration: { fetch: scriptedOpenAIFetch() },
  });
  const agent = (agentName, extra = {}) =>
    createReactAgent({ llm, tools, name: agentName, ...extra });
  const invoke = (agentName, goal, config = {}, extra = {}) =>
    wrap(agentName, async () => {
      try {
        const result = await agent(agentName, extra).invoke(
          { messages: [{ role: 'user', content: goal }] },
          config,
        );
        console.log(
          agentName,
          'messages',
          result.messages?.length,
          'interrupt',
          Boolean(result.__interrupt__),
        );
      } catch (error) {
        console.log(agentName, 'threw', error.name, error.message.slice(0, 100));
      }
    });

  if (name === 'long-interleaved') {
    await Promise.all([
      invoke('auditor', GOALS.long, { recursionLimit: 100 }),
      invoke('helper-a', GOALS['short-a']),
      invoke('helper-b', GOALS['short-b']),
    ]);
  } else if (name === 'recursion-limit') {
    await invoke('coder', GOALS['step-limit'], { recursionLimit: 8 });
  } else if (name === 'interrupt') {
    await invoke(
      'coder',
      GOALS.approval,
      { configurable: { thread_id: 'thread-1' } },
      { checkpointSaver: new MemorySaver() },
    );
  } else {
    await invoke('coder', GOALS[name]);
  }
}
