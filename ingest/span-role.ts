// What a span is in the loop, by a priority-ordered list of small rules (first match wins):
// explicit `loop.step`, then a framework's own loop-cycle span, then the GenAI and OpenInference
// span kinds, then framework span names.
import type { SpanRole } from '../trajectory/span-facts';
import { readString } from './attributes';
import type { Attributes } from './otlp/types';

interface RoleInput {
  name: string;
  attributes: Attributes;
}

type RoleRule = { name: string; role: SpanRole; test: (span: RoleInput) => boolean };

const lowerName = (span: RoleInput) => span.name.trim().toLowerCase();
const attr = (span: RoleInput, key: string) => readString(span.attributes, key)?.toLowerCase();

const CYCLE_SPAN_NAMES = new Set([
  'execute_event_loop_cycle', // Strands
  'execute_agent_loop_cycle', // Strands
  'turn', // OpenAI Agents
  'ai.generatetext.dogenerate', // Vercel AI SDK v6: one model call per loop step
  'ai.streamtext.dostream',
  'ai.generateobject.dogenerate',
]);
const LLM_OPERATIONS = new Set(['chat', 'text_completion', 'generate_content', 'embeddings']);

export const SPAN_ROLE_RULES: readonly RoleRule[] = [
  { name: 'loop.step', role: 'step', test: (s) => Object.hasOwn(s.attributes, 'loop.step') },
  {
    name: 'framework loop cycle',
    role: 'cycle',
    test: (s) =>
      CYCLE_SPAN_NAMES.has(lowerName(s)) ||
      Object.hasOwn(s.attributes, 'agent_loop.cycle_id') ||
      Object.hasOwn(s.attributes, 'event_loop.cycle_id') ||
      attr(s, 'gen_ai.operation.name') === 'agent_step' ||
      attr(s, 'gen_ai.operation.name') === 'model.step' || // Mastra `step: N`
      /^step \d+$/.test(lowerName(s)),
  },
  {
    name: 'gen_ai.operation.name',
    role: 'agent',
    test: (s) => ['invoke_agent', 'create_agent'].includes(attr(s, 'gen_ai.operation.name') ?? ''),
  },
  {
    name: 'execute_tool',
    role: 'tool',
    test: (s) => attr(s, 'gen_ai.operation.name') === 'execute_tool',
  },
  {
    name: 'mastra tool call',
    role: 'tool',
    test: (s) =>
      attr(s, 'gen_ai.operation.name') === 'tool.execute' ||
      ['tool_call', 'mcp_tool_call'].includes(attr(s, 'mastra.span.type') ?? ''),
  },
  {
    name: 'mastra agent run',
    role: 'agent',
    test: (s) => attr(s, 'mastra.span.type') === 'agent_run',
  },
  {
    name: 'llm operation',
    role: 'llm',
    test: (s) => LLM_OPERATIONS.has(attr(s, 'gen_ai.operation.name') ?? ''),
  },
  {
    name: 'openinference AGENT',
    role: 'agent',
    test: (s) => attr(s, 'openinference.span.kind') === 'agent',
  },
  {
    name: 'openinference TOOL',
    role: 'tool',
    test: (s) => attr(s, 'openinference.span.kind') === 'tool',
  },
  {
    name: 'openinference LLM',
    role: 'llm',
    test: (s) => attr(s, 'openinference.span.kind') === 'llm',
  },
  {
    name: 'openinference CHAIN',
    role: 'chain',
    test: (s) => attr(s, 'openinference.span.kind') === 'chain',
  },
  {
    name: 'traceloop kind',
    role: 'agent',
    test: (s) => ['agent', 'workflow'].includes(attr(s, 'traceloop.span.kind') ?? ''),
  },
  { name: 'traceloop tool', role: 'tool', test: (s) => attr(s, 'traceloop.span.kind') === 'tool' },
  { name: 'traceloop task', role: 'chain', test: (s) => attr(s, 'traceloop.span.kind') === 'task' },
  {
    name: 'llm.request.type',
    role: 'llm',
    test: (s) => Object.hasOwn(s.attributes, 'llm.request.type'),
  },
  { name: 'vercel tool call', role: 'tool', test: (s) => lowerName(s).startsWith('ai.toolcall') },
  {
    name: 'vercel generate',
    role: 'agent',
    test: (s) => /^ai\.(generatetext|streamtext|generateobject|streamobject)$/.test(lowerName(s)),
  },
  {
    name: 'name: execute_tool',
    role: 'tool',
    test: (s) => lowerName(s).startsWith('execute_tool'),
  },
  {
    name: 'name: invoke_agent',
    role: 'agent',
    test: (s) => lowerName(s).startsWith('invoke_agent'),
  },
  { name: 'adk call_llm', role: 'llm', test: (s) => lowerName(s) === 'call_llm' },
  {
    name: 'name: chat',
    role: 'llm',
    test: (s) => /^(chat|text_completion|generate_content)\b/.test(lowerName(s)),
  },
];

export function classifySpanRole(span: RoleInput): SpanRole {
  for (const rule of SPAN_ROLE_RULES) if (rule.test(span)) return rule.role;
  return 'other';
}
