// The span route's answer, checked where it enters the browser.
import '@/lib/zod-in-browser';
import { z } from 'zod';
import { SPAN_TREE_LIMIT } from '@/lib/api-types';
import type { StepDetailData } from '@/components/trajectory/types';
import type { SpanTree } from '@/lib/api-types';

const pairs = z.array(z.tuple([z.string(), z.unknown()]));

export const stepDetailSchema: z.ZodType<StepDetailData> = z.object({
  ordinal: z.number(),
  index: z.number(),
  action: z.string().nullable(),
  actionArgs: z.string().nullable(),
  result: z.string().nullable(),
  resultHash: z.string().nullable(),
  verdict: z.string().nullable(),
  verdictSource: z.string().nullable(),
  verdictFields: z.array(z.tuple([z.string(), z.boolean()])).nullable(),
  errorClass: z.string().nullable(),
  costUsd: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  contextTokens: z.number().nullable(),
  durationMs: z.number().nullable(),
  traceId: z.string(),
  spanId: z.string(),
  span: z
    .object({
      name: z.string(),
      kind: z.number(),
      parentSpanId: z.string().nullable(),
      startMs: z.number(),
      endMs: z.number().nullable(),
      statusCode: z.number(),
      statusMessage: z.string(),
      scopeName: z.string(),
      attributes: pairs,
      events: z.array(z.object({ name: z.string(), timeMs: z.number(), attributes: pairs })),
      resource: pairs,
    })
    .nullable(),
});

/** Where the selected step's span comes from (the project as the page has it). */
export function spanUrl(runId: string, ordinal: number, project: string | undefined): string {
  const query = project ? `?project=${encodeURIComponent(project)}` : '';
  return `/runs/${encodeURIComponent(runId)}/steps/${ordinal}/span${query}`;
}

const toolCall = z.object({
  name: z.string(),
  args: z.string().nullable(),
  id: z.string().nullable(),
});
const chatMessage = z.object({
  role: z.string(),
  content: z.string(),
  toolCalls: z.array(toolCall),
  toolCallId: z.string().nullable(),
});

export const spanTreeSchema: z.ZodType<SpanTree> = z.object({
  spans: z.array(
    z.object({
      traceId: z.string(),
      spanId: z.string(),
      parentSpanId: z.string().nullable(),
      depth: z.number(),
      name: z.string(),
      kind: z.number(),
      role: z.string().nullable(),
      startMs: z.number(),
      endMs: z.number().nullable(),
      statusCode: z.number(),
      statusMessage: z.string(),
      model: z.string().nullable(),
      inputTokens: z.number(),
      outputTokens: z.number(),
      costUsd: z.number().nullable(),
      messages: z
        .object({
          conventions: z.array(
            z.enum([
              'gen_ai.messages',
              'gen_ai.events',
              'openinference',
              'vercel-ai',
              'openllmetry',
              'google-adk',
            ]),
          ),
          input: z.array(chatMessage),
          output: z.array(chatMessage),
          finishReason: z.string().nullable(),
        })
        .nullable(),
      attributes: pairs,
      events: z.array(z.object({ name: z.string(), timeMs: z.number(), attributes: pairs })),
    }),
  ),
  total: z.number(),
  limit: z.number(),
  capped: z.boolean(),
});

/** A step's span tree (the step by its position, 1..n). */
export function stepTreeUrl(runId: string, ordinal: number, project: string | undefined): string {
  return withProject(`/runs/${encodeURIComponent(runId)}/steps/${ordinal}/spans`, project);
}

/** The run's whole trace as a tree. */
export function runTreeUrl(runId: string, project: string | undefined): string {
  return withProject(`/runs/${encodeURIComponent(runId)}/spans`, project);
}

/** A tree's URL asking for `limit` spans (the route's default when it is SPAN_TREE_LIMIT). */
export function treeUrlWithLimit(url: string, limit: number): string {
  if (limit === SPAN_TREE_LIMIT) return url;
  return `${url}${url.includes('?') ? '&' : '?'}limit=${limit}`;
}

function withProject(path: string, project: string | undefined): string {
  return project ? `${path}?project=${encodeURIComponent(project)}` : path;
}
