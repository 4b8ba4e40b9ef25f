// Fields of the conformance captures that Loopscope reads wrong today. replay-suite.ts asserts that
// each entry still mismatches (a fix makes the suite fail until its entry is removed here) and that
// every field not listed matches the capture's truth. Each `why` says where in the spans the truth
// lies, for the engineer who fixes the reading (ingest/, trajectory/). The table is in
// conformance/README.md too.

export interface KnownGap {
  /** `<framework>/<scenario>` */
  capture: string;
  /** the expected run's key, as in capture.json (`*` for a capture-wide check such as fragments) */
  run: string;
  field: string;
  /** what the read API gives today */
  readsToday: unknown;
  /** why, and where the truth lies in the spans */
  why: string;
}

const ADK_FAILED_TOOL_EMPTY =
  'A failed ADK tool span is empty (no attribute, status unset, no exception event); the failure is only in the next call_llm\'s `gcp.vertex.agent.llm_request`: functionResponse {"name":"deploy","response":{"error":"Error in tool \'deploy\': deploy of 1.0.1 failed: cluster unreachable"}}.';
const TRACELOOP_CONCURRENT_PARENTS =
  "Not fixable by reading: with three graphs running at once, Traceloop's LangChain handler parents the spans of all three under the first app span (trace of `invoke_agent auditor`: 267 spans, 35 tool calls, 38 model calls); the helpers' app spans arrive alone in their traces. The guide says to run one graph at a time per process with this instrumentation, or use OpenInference.";
const TRACELOOP_NO_APP_SPAN =
  'Without an app span every Traceloop span is its own trace (`workflow CompiledStateGraph`, `workflow RunnableSequence`, `chat gpt-4o`, `execute_tool ...`); only the single LLM/tool-call traces are marked as fragments, the lone workflow-span traces are listed as runs (unknown, 0 steps).';
const OPENAI_AGENTS_REDACTED_ERRORS =
  'False revisit: OpenAI Agents redacts tool errors, so failures 1 and 3 (different versions) have the same `output.value` "An error occurred while running the tool. Please try again." and, standing in for state, make A/B/A. An errored result (span status ERROR, message `Error running tool (non-fatal)`) should not stand in for state.';

const PY_SMOLAGENTS_MAX_STEPS =
  "The limit is named nowhere; the run span's `smolagents.max_steps` equal to the step count (and no `final_answer` call) says the limit was hit.";
const PY_SMOLAGENTS_FINAL_ANSWER =
  'The `final_answer` tool call ends the run; smolagents records no finish reason, so a run whose last step calls final_answer is the model stopping.';

export const KNOWN_GAPS: KnownGap[] = [
  {
    capture: 'google-adk/tool-failures',
    run: 'agent:coder',
    field: 'signals.toolCircuit',
    readsToday: false,
    why: ADK_FAILED_TOOL_EMPTY,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'actions',
    readsToday: Array(35).fill('DynamicStructuredTool'),
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'costUsd',
    readsToday: 0.0133,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'inputTokens',
    readsToday: 3800,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'outputTokens',
    readsToday: 380,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:auditor',
    field: 'stepCount',
    readsToday: 35,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'actions',
    readsToday: [],
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'costUsd',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'inputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'outputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-a',
    field: 'stepCount',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'actions',
    readsToday: [],
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'costUsd',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'inputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'outputTokens',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/long-interleaved',
    run: 'agent:helper-b',
    field: 'stepCount',
    readsToday: 0,
    why: TRACELOOP_CONCURRENT_PARENTS,
  },
  {
    capture: 'langgraph-traceloop/no-app-span-long-interleaved',
    run: '*',
    field: 'fragments',
    readsToday: false,
    why: TRACELOOP_NO_APP_SPAN,
  },
  {
    capture: 'langgraph-traceloop/no-app-span-success',
    run: '*',
    field: 'fragments',
    readsToday: false,
    why: TRACELOOP_NO_APP_SPAN,
  },
  {
    capture: 'openai-agents/tool-flaky',
    run: 'agent:coder',
    field: 'signals.revisit',
    readsToday: true,
    why: OPENAI_AGENTS_REDACTED_ERRORS,
  },
  {
    capture: 'python-smolagents/max-steps',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_SMOLAGENTS_MAX_STEPS,
  },
  {
    capture: 'python-smolagents/max-steps',
    run: 'only',
    field: 'exitKind',
    readsToday: null,
    why: PY_SMOLAGENTS_MAX_STEPS,
  },
  {
    capture: 'python-smolagents/repeat',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_SMOLAGENTS_FINAL_ANSWER,
  },
  {
    capture: 'python-smolagents/success',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_SMOLAGENTS_FINAL_ANSWER,
  },
  {
    capture: 'python-smolagents/tool-failure',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_SMOLAGENTS_FINAL_ANSWER,
  },
];
