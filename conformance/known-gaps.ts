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

const AI_SDK_6_FUNCTION_ID =
  'Agent name: AI SDK 6 puts the functionId in `ai.telemetry.functionId` and `resource.name` ("coder") and in `operation.name` ("ai.generateText coder") on every span; no `gen_ai.agent.name`.';
const AI_SDK_APPROVAL_UNNAMED =
  'needsApproval leaves no trace: the spans end like the step limit (last finishReason tool-calls) except that the requested tool has no tool span (v6 `ai.toolCall`, v7 `execute_tool`); the guess says budget_exhausted, the honest reading is unknown. A run whose last model call asked for a tool that never ran did not stop on a step limit.';
const FOLLOWS_FROM_GUESS = 'Follows from the guessed budget_exhausted.';
const AI_SDK_7_APPROVAL_CALL =
  'No execute_tool span (the tool waits for approval); the requested call is in the chat and invoke_agent spans\' `gen_ai.output.messages`: [{"parts":[{"type":"tool_call","name":"delete_branch","arguments":{"name":"stale-feature"}}]}].';
const ADK_CONFIRMATION =
  'requireConfirmation: the `execute_tool delete_branch` span\'s `gcp.vertex.agent.tool_response` = {"error":"This tool call requires confirmation, please approve or reject."}; the run ends there. The model_stopped reading comes from `gen_ai.response.finish_reasons = ["stop"]`, which ADK sets on every call_llm, even one that asked for a tool.';
const ADK_LLM_CALL_LIMIT =
  'ADK reports maxLlmCalls only in its event stream (errorMessage "Max number of llm calls limit of 4 exceeded"); the fifth call_llm span is exported empty. The model_stopped reading comes from `gen_ai.response.finish_reasons = ["stop"]`, which ADK sets on every call_llm, even those that asked for tools; the honest reading is unknown.';
const ADK_ARGS_ATTRIBUTE =
  'False repeat from missing arguments: the tool arguments are read from `gen_ai.tool.call.arguments` / `input.value`, but ADK puts them in `gcp.vertex.agent.tool_call_args` ({"page":1}); a failed tool\'s execute_tool span has no attribute at all (its arguments are in the calling call_llm\'s `gcp.vertex.agent.llm_response` functionCall.args).';
const ADK_RESULT_ATTRIBUTE =
  'No results read: ADK\'s result is `gcp.vertex.agent.tool_response` ({"result":"// src/a.ts..."}), not `gen_ai.tool.call.result` / `output.value`.';
const ADK_FAILED_TOOL_EMPTY =
  'A failed ADK tool span is empty (no attribute, status unset, no exception event); the failure is only in the next call_llm\'s `gcp.vertex.agent.llm_request`: functionResponse {"name":"deploy","response":{"error":"Error in tool \'deploy\': deploy of 1.0.1 failed: cluster unreachable"}}.';
const LANGGRAPH_OI_GRAPH_NAME =
  'Agent name: the graph\'s name (createReactAgent({ name })) is only the root CHAIN span\'s name ("coder"); no agent attribute, so the service.name fallback wins.';
const LANGGRAPH_OI_INTERRUPT =
  'interrupt(): the TOOL span `delete_branch` (and its node span) ends ERROR with the exception message `[...]\\n\\nGraphInterrupt: [{"id":...,"value":{"question":"Delete branch stale-feature?",...}}]` while the root ends OK; the budget_exhausted/steps guess comes from the last model call\'s tool_calls.';
const LANGGRAPH_START_NODE =
  'The `__start__` node span (metadata `langgraph_step: 0`, `langgraph_node: "__start__"`) counts as a super-step; it only writes the input, the loop\'s first step is `agent` at langgraph_step 1.';
const LANGGRAPH_OI_RESULT_ENVELOPE =
  'A/B/A not seen: the TOOL spans\' `output.value` wraps the ToolMessage under an `output` key ({"output":{"lc":1,...,"kwargs":{"content":"// src/a.ts...","tool_call_id":"call_1",...}}}); the envelope with its per-call id is hashed, so no two results match. Hash kwargs.content.';
const TRACELOOP_TOOL_NAME =
  'Traceloop names every tool span `execute_tool DynamicStructuredTool` (`traceloop.entity.name`); the tool\'s name is in `traceloop.entity.output`, the serialised ToolMessage\'s `kwargs.name` ("read_file"), and its arguments in `traceloop.entity.input` ({"args":["{\\"path\\":\\"README.md\\"}"]}).';
const TRACELOOP_INTERRUPT =
  "interrupt(): the `execute_tool DynamicStructuredTool` span and a `workflow RunnableSequence` span end ERROR with an exception event `exception.type = GraphInterrupt`; the root app span has no status; the budget_exhausted/steps guess comes from the last chat span's finish reason tool_call.";
const TRACELOOP_CONCURRENT_PARENTS =
  "Not fixable by reading: with three graphs running at once, Traceloop's LangChain handler parents the spans of all three under the first app span (trace of `invoke_agent auditor`: 267 spans, 35 tool calls, 38 model calls); the helpers' app spans arrive alone in their traces. The guide says to run one graph at a time per process with this instrumentation, or use OpenInference.";
const TRACELOOP_NO_APP_SPAN =
  'Without an app span every Traceloop span is its own trace (`workflow CompiledStateGraph`, `workflow RunnableSequence`, `chat gpt-4o`, `execute_tool ...`); only the single LLM/tool-call traces are marked as fragments, the lone workflow-span traces are listed as runs (unknown, 0 steps).';
const MASTRA_TOOL_SPANS =
  'No steps are read (see stepCount); each `tool.execute <name>` span has `gen_ai.tool.name` ("read_file") and `gen_ai.tool.input` / `input` ({"path":"README.md"}), `gen_ai.tool.output` / `output`.';
const MASTRA_AGENT_ID =
  'Agent name: Mastra\'s agent_run span (`agent.coder`) carries `agent.id` / `gen_ai.agent.id` = "coder", not `gen_ai.agent.name`.';
const MASTRA_STEP_SPANS =
  "Mastra's step spans are `step: N` (`gen_ai.operation.name = model.step`, `mastra.span.type = model_step`) under the `chat gpt-4o` span; its tool spans are `tool.execute <name>` (`gen_ai.operation.name = tool.execute`, `mastra.span.type = tool_call`). Neither is recognised, so the run has no steps.";
const MASTRA_NO_STEPS = 'No steps are read (see stepCount), so no signal can be computed.';
const OPENAI_AGENTS_APPROVAL_CALL =
  "The step's only action is the call the last generation asked for: `llm.output_messages.0.message.tool_calls.0.tool_call.function.name = delete_branch` (arguments beside it); no TOOL span, since the tool waits for approval.";
const OPENAI_AGENTS_AGENT_SPAN =
  'Agent name: OpenInference puts it on the AGENT span, as its name and `graph.node.id` ("coder"); no `gen_ai.agent.name`, so the service.name fallback wins.';
const OPENAI_AGENTS_APPROVAL_UNNAMED =
  'The needsApproval stop leaves no trace: every span OK, no event; the last generation asked for delete_branch (`llm.finish_reason = tool_calls`) and no TOOL span follows. The guess from that finish reason says budget_exhausted; the honest reading is unknown.';
const OPENAI_AGENTS_INPUT_GUARDRAIL =
  '`Error in agent run: {"error":"InputGuardrailTripwireTriggered: ..."}` (status message, exception.message) and a GUARDRAIL span `no_secrets` with `guardrail.triggered = true`; read as a plain error today.';
const OPENAI_AGENTS_OUTPUT_GUARDRAIL =
  '`Error in agent run: {"error":"OutputGuardrailTripwireTriggered: ..."}` (status message, exception.message) and a GUARDRAIL span `no_secret_output` with `guardrail.triggered = true`; read as a plain error today.';
const OPENAI_AGENTS_REDACTED_ERRORS =
  'False revisit: OpenAI Agents redacts tool errors, so failures 1 and 3 (different versions) have the same `output.value` "An error occurred while running the tool. Please try again." and, standing in for state, make A/B/A. An errored result (span status ERROR, message `Error running tool (non-fatal)`) should not stand in for state.';
const OPENAI_AGENTS_MAX_TURNS =
  'MaxTurnsExceeded is named inside JSON text: status message and exception.message `Error in agent run: {"error":"MaxTurnsExceededError: Max turns (4) exceeded"}` on the AGENT span `coder` and the CHAIN `Agent workflow` (whose parent AGENT span is never exported).';
const OPENAI_AGENTS_MAX_TURNS_KIND = 'Follows from MaxTurnsExceeded (budget kind steps).';
const STRANDS_INTERRUPT_CALL =
  'The interrupt stops before the tool runs, so there is no execute_tool span; the requested call is on the chat span: default conventions `gen_ai.choice` event `message` [{"type":"toolUse","name":"delete_branch","input":{...}}], latest conventions `gen_ai.output.messages` part {"type":"tool_call","name":"delete_branch"}.';
const STRANDS_LATEST_FINISH_REASON =
  'Latest GenAI conventions: the finish reason sits only in the JSON of `gen_ai.output.messages` (`finish_reason` "endTurn" / "limitTurns" / "interrupt") on the root invoke_agent span\'s `gen_ai.client.inference.operation.details` events; no `gen_ai.choice` event as in the default conventions.';
const STRANDS_LATEST_LIMIT_KIND = 'Follows from limitTurns in gen_ai.output.messages.';

const PY_LANGGRAPH_INTERRUPT =
  'interrupt(): `GraphInterrupt` is an exception event on an OK child span (the tool and node spans); the root names nothing, so the last `llm.finish_reason` (`tool_calls`) is taken as a cut-off.';
const PY_LANGGRAPH_RESULT_ENVELOPE =
  'A/B/A not seen: the TOOL spans\' results are `{"type":"tool","data":{...,"tool_call_id":...}}`; the envelope with its per-call id is hashed (only `lc`/`kwargs` and a top-level `content` are peeled), so no state repeats. Hash data.content.';
const PY_OPENAI_AGENTS_MAX_TURNS =
  "The reason is only the agent child span's ERROR status text `Max turns exceeded: {'max_turns': 3}`; the root ends OK and names nothing.";
const PY_OPENAI_AGENTS_GUARDRAIL =
  "The agent span ends ERROR with `Guardrail tripwire triggered: {'guardrail': 'no_secrets'}`; the GUARDRAIL span does not say it tripped (GuardrailSpanData.triggered is not exported).";
const PY_OPENAI_AGENTS_NO_FINISH =
  "No finish reason anywhere: the Responses output is only in the LLM span's `output.value` JSON (`status: completed`, no tool call in the last output); a last model call without a tool call that ends the run is the model stopping.";
const PY_PYDANTIC_DEFERRAL =
  '`pydantic_ai.tool.deferral.name = ApprovalRequired` on the tool span is not read; the last `gen_ai.response.finish_reasons` (`tool_call`) is taken as a cut-off.';
const PY_SMOLAGENTS_MAX_STEPS =
  "The limit is named nowhere; the run span's `smolagents.max_steps` equal to the step count (and no `final_answer` call) says the limit was hit.";
const PY_SMOLAGENTS_FINAL_ANSWER =
  'The `final_answer` tool call ends the run; smolagents records no finish reason, so a run whose last step calls final_answer is the model stopping.';

export const KNOWN_GAPS: KnownGap[] = [
  {
    capture: 'ai-sdk-6/approval',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/approval',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: AI_SDK_APPROVAL_UNNAMED,
  },
  {
    capture: 'ai-sdk-6/approval',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: 'steps',
    why: FOLLOWS_FROM_GUESS,
  },
  {
    capture: 'ai-sdk-6/long-interleaved',
    run: 'agent:auditor',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/long-interleaved',
    run: 'agent:helper-a',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/long-interleaved',
    run: 'agent:helper-b',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/oscillation',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/repeat',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/step-limit',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/success',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/tool-failures',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-6/tool-flaky',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-ai-sdk-6',
    why: AI_SDK_6_FUNCTION_ID,
  },
  {
    capture: 'ai-sdk-7/approval',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: AI_SDK_7_APPROVAL_CALL,
  },
  {
    capture: 'ai-sdk-7/approval',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: AI_SDK_APPROVAL_UNNAMED,
  },
  {
    capture: 'ai-sdk-7/approval',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: 'steps',
    why: FOLLOWS_FROM_GUESS,
  },
  {
    capture: 'google-adk/confirmation',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'model_stopped',
    why: ADK_CONFIRMATION,
  },
  {
    capture: 'google-adk/llm-call-limit',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'model_stopped',
    why: ADK_LLM_CALL_LIMIT,
  },
  {
    capture: 'google-adk/llm-call-limit',
    run: 'agent:coder',
    field: 'signals.repeat',
    readsToday: true,
    why: ADK_ARGS_ATTRIBUTE,
  },
  {
    capture: 'google-adk/long-interleaved',
    run: 'agent:auditor',
    field: 'signals.repeat',
    readsToday: true,
    why: ADK_ARGS_ATTRIBUTE,
  },
  {
    capture: 'google-adk/oscillation',
    run: 'agent:coder',
    field: 'signals.repeat',
    readsToday: true,
    why: ADK_ARGS_ATTRIBUTE,
  },
  {
    capture: 'google-adk/oscillation',
    run: 'agent:coder',
    field: 'signals.revisit',
    readsToday: false,
    why: ADK_RESULT_ATTRIBUTE,
  },
  {
    capture: 'google-adk/tool-failures',
    run: 'agent:coder',
    field: 'signals.repeat',
    readsToday: true,
    why: ADK_ARGS_ATTRIBUTE,
  },
  {
    capture: 'google-adk/tool-failures',
    run: 'agent:coder',
    field: 'signals.toolCircuit',
    readsToday: false,
    why: ADK_FAILED_TOOL_EMPTY,
  },
  {
    capture: 'google-adk/tool-flaky',
    run: 'agent:coder',
    field: 'signals.repeat',
    readsToday: true,
    why: ADK_ARGS_ATTRIBUTE,
  },
  {
    capture: 'langgraph-openinference/interrupt',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/interrupt',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: LANGGRAPH_OI_INTERRUPT,
  },
  {
    capture: 'langgraph-openinference/interrupt',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: 'steps',
    why: FOLLOWS_FROM_GUESS,
  },
  {
    capture: 'langgraph-openinference/interrupt',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 3,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/long-interleaved',
    run: 'agent:auditor',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/long-interleaved',
    run: 'agent:auditor',
    field: 'stepCount',
    readsToday: 66,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/long-interleaved',
    run: 'agent:helper-a',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/long-interleaved',
    run: 'agent:helper-a',
    field: 'stepCount',
    readsToday: 4,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/long-interleaved',
    run: 'agent:helper-b',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/long-interleaved',
    run: 'agent:helper-b',
    field: 'stepCount',
    readsToday: 6,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/oscillation',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/oscillation',
    run: 'agent:coder',
    field: 'signals.revisit',
    readsToday: false,
    why: LANGGRAPH_OI_RESULT_ENVELOPE,
  },
  {
    capture: 'langgraph-openinference/oscillation',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 10,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/recursion-limit',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/recursion-limit',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 9,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/repeat',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/repeat',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 10,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/success',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/success',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 6,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/tool-failures',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/tool-failures',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 10,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-openinference/tool-flaky',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-langgraph-openinference',
    why: LANGGRAPH_OI_GRAPH_NAME,
  },
  {
    capture: 'langgraph-openinference/tool-flaky',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 8,
    why: LANGGRAPH_START_NODE,
  },
  {
    capture: 'langgraph-traceloop/interrupt',
    run: 'agent:coder',
    field: 'actions',
    readsToday: ['DynamicStructuredTool'],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'langgraph-traceloop/interrupt',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: TRACELOOP_INTERRUPT,
  },
  {
    capture: 'langgraph-traceloop/interrupt',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: 'steps',
    why: FOLLOWS_FROM_GUESS,
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
    capture: 'langgraph-traceloop/oscillation',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
    ],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'langgraph-traceloop/recursion-limit',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
    ],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'langgraph-traceloop/repeat',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
    ],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'langgraph-traceloop/success',
    run: 'agent:coder',
    field: 'actions',
    readsToday: ['DynamicStructuredTool', 'DynamicStructuredTool'],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'langgraph-traceloop/tool-failures',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
      'DynamicStructuredTool',
    ],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'langgraph-traceloop/tool-flaky',
    run: 'agent:coder',
    field: 'actions',
    readsToday: ['DynamicStructuredTool', 'DynamicStructuredTool', 'DynamicStructuredTool'],
    why: TRACELOOP_TOOL_NAME,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:auditor',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:auditor',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:auditor',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:helper-a',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:helper-a',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:helper-a',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:helper-b',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:helper-b',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/long-interleaved',
    run: 'agent:helper-b',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/oscillation',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/oscillation',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/oscillation',
    run: 'agent:coder',
    field: 'signals.revisit',
    readsToday: false,
    why: MASTRA_NO_STEPS,
  },
  {
    capture: 'mastra/oscillation',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/output-tripwire',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/output-tripwire',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/output-tripwire',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/repeat',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/repeat',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/repeat',
    run: 'agent:coder',
    field: 'signals.repeat',
    readsToday: false,
    why: MASTRA_NO_STEPS,
  },
  {
    capture: 'mastra/repeat',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/step-limit',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/step-limit',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/step-limit',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/success',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/success',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/success',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/tool-failures',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/tool-failures',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/tool-failures',
    run: 'agent:coder',
    field: 'signals.toolCircuit',
    readsToday: false,
    why: MASTRA_NO_STEPS,
  },
  {
    capture: 'mastra/tool-failures',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'mastra/tool-flaky',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: MASTRA_TOOL_SPANS,
  },
  {
    capture: 'mastra/tool-flaky',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-mastra',
    why: MASTRA_AGENT_ID,
  },
  {
    capture: 'mastra/tool-flaky',
    run: 'agent:coder',
    field: 'stepCount',
    readsToday: 0,
    why: MASTRA_STEP_SPANS,
  },
  {
    capture: 'openai-agents/approval',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: OPENAI_AGENTS_APPROVAL_CALL,
  },
  {
    capture: 'openai-agents/approval',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/approval',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: OPENAI_AGENTS_APPROVAL_UNNAMED,
  },
  {
    capture: 'openai-agents/approval',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: 'steps',
    why: FOLLOWS_FROM_GUESS,
  },
  {
    capture: 'openai-agents/input-guardrail',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/input-guardrail',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'hard_error',
    why: OPENAI_AGENTS_INPUT_GUARDRAIL,
  },
  {
    capture: 'openai-agents/long-interleaved',
    run: 'agent:auditor',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/long-interleaved',
    run: 'agent:helper-a',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/long-interleaved',
    run: 'agent:helper-b',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/oscillation',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/output-guardrail',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/output-guardrail',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'hard_error',
    why: OPENAI_AGENTS_OUTPUT_GUARDRAIL,
  },
  {
    capture: 'openai-agents/repeat',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/success',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/tool-failures',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/tool-flaky',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/tool-flaky',
    run: 'agent:coder',
    field: 'signals.revisit',
    readsToday: true,
    why: OPENAI_AGENTS_REDACTED_ERRORS,
  },
  {
    capture: 'openai-agents/turn-limit',
    run: 'agent:coder',
    field: 'agent',
    readsToday: 'conformance-openai-agents',
    why: OPENAI_AGENTS_AGENT_SPAN,
  },
  {
    capture: 'openai-agents/turn-limit',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'hard_error',
    why: OPENAI_AGENTS_MAX_TURNS,
  },
  {
    capture: 'openai-agents/turn-limit',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: null,
    why: OPENAI_AGENTS_MAX_TURNS_KIND,
  },
  {
    capture: 'strands-ts-latest/approval',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: STRANDS_INTERRUPT_CALL,
  },
  {
    capture: 'strands-ts-latest/approval',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/long-interleaved',
    run: 'agent:auditor',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/long-interleaved',
    run: 'agent:helper-a',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/long-interleaved',
    run: 'agent:helper-b',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/oscillation',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/repeat',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/success',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/tool-failures',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/tool-flaky',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/turn-limit',
    run: 'agent:coder',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: STRANDS_LATEST_FINISH_REASON,
  },
  {
    capture: 'strands-ts-latest/turn-limit',
    run: 'agent:coder',
    field: 'exitKind',
    readsToday: null,
    why: STRANDS_LATEST_LIMIT_KIND,
  },
  {
    capture: 'strands-ts/approval',
    run: 'agent:coder',
    field: 'actions',
    readsToday: [],
    why: STRANDS_INTERRUPT_CALL,
  },
  {
    capture: 'python-langgraph/interrupt',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: PY_LANGGRAPH_INTERRUPT,
  },
  {
    capture: 'python-langgraph/interrupt',
    run: 'only',
    field: 'exitKind',
    readsToday: 'steps',
    why: PY_LANGGRAPH_INTERRUPT,
  },
  {
    capture: 'python-langgraph/oscillation',
    run: 'only',
    field: 'signals.revisit',
    readsToday: false,
    why: PY_LANGGRAPH_RESULT_ENVELOPE,
  },
  {
    capture: 'python-openai-agents/guardrail',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_OPENAI_AGENTS_GUARDRAIL,
  },
  {
    capture: 'python-openai-agents/repeat',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_OPENAI_AGENTS_NO_FINISH,
  },
  {
    capture: 'python-openai-agents/success',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_OPENAI_AGENTS_NO_FINISH,
  },
  {
    capture: 'python-openai-agents/tool-failure',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_OPENAI_AGENTS_NO_FINISH,
  },
  {
    capture: 'python-openai-agents/turn-limit',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'unknown',
    why: PY_OPENAI_AGENTS_MAX_TURNS,
  },
  {
    capture: 'python-openai-agents/turn-limit',
    run: 'only',
    field: 'exitKind',
    readsToday: null,
    why: PY_OPENAI_AGENTS_MAX_TURNS,
  },
  {
    capture: 'python-pydantic-ai/approval',
    run: 'only',
    field: 'exitCategory',
    readsToday: 'budget_exhausted',
    why: PY_PYDANTIC_DEFERRAL,
  },
  {
    capture: 'python-pydantic-ai/approval',
    run: 'only',
    field: 'exitKind',
    readsToday: 'steps',
    why: PY_PYDANTIC_DEFERRAL,
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
