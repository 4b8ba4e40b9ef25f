// Span trees read back from real captures sent byte for byte through the real ingest endpoint,
// on PGlite and Postgres: a step's span and its descendants with a model call's messages, a run's
// whole trace, the cap, and isolation across projects (the read model and its JSON routes).
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCapture, requestBody } from '@/conformance/read-capture';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { SPAN_TREE_LIMIT, SPAN_TREE_MAX } from '@/lib/api-types';
import type { SpanTree } from '@/lib/api-types';
import { TEST_DATABASE_KINDS, rawRows } from '../test-database';
import { runSpanTree, stepSpanTree } from './span-tree';

const CAPTURES = join(import.meta.dirname, '..', '..', 'conformance', 'captures');

async function sendCapture(server: TestServer, key: string, name: string): Promise<void> {
  const dir = join(CAPTURES, name);
  for (const request of readCapture(dir).requests) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      'content-type': request.contentType,
    };
    if (request.contentEncoding) headers['content-encoding'] = request.contentEncoding;
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers,
      body: new Uint8Array(requestBody(dir, request)),
    });
    expect(response.status, `${name}/${request.file}`).toBe(200);
  }
}

describe.each(TEST_DATABASE_KINDS)('span trees on %s', (kind) => {
  let server: TestServer;
  let other: { projectId: string; key: string };
  const runs: Record<string, string> = {};
  const projects: Record<string, { projectId: string; key: string }> = {};

  beforeAll(async () => {
    server = await startTestServer(kind);
    other = await server.newProject(`other-${kind}`);
    for (const capture of ['strands-ts/success', 'openai-agents/success', 'ai-sdk-6/success']) {
      const project = await server.newProject(`${capture.replace('/', '-')}-${kind}`);
      projects[capture] = project;
      await sendCapture(server, project.key, capture);
      await server.settle(project.projectId);
      const [run] = await rawRows(
        server.database.db,
        sql`select id from runs where project_id = ${project.projectId}::uuid`,
      );
      runs[capture] = String(run?.id);
    }
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  const stepTree = (capture: string, ordinal: number, projectId?: string) =>
    stepSpanTree(server.database.db, {
      projectId: projectId ?? projects[capture]!.projectId,
      runId: runs[capture]!,
      ordinal,
      prices: server.runtime.prices,
    });

  it("a Strands step: its cycle span, the model call with its messages and the tool's span", async () => {
    const tree = await stepTree('strands-ts/success', 2);
    expect(tree?.capped).toBe(false);
    expect(tree?.spans.map((s) => [s.depth, s.name])).toEqual([
      [0, 'execute_agent_loop_cycle'],
      [1, 'chat'],
      [1, 'execute_tool write_file'],
    ]);
    const chat = tree!.spans[1]!;
    expect(chat).toMatchObject({ role: 'llm', inputTokens: 100, outputTokens: 10, statusCode: 1 });
    // gpt-4o at the test prices: 100 × 2.5 + 10 × 10 per million.
    expect(chat.costUsd).toBeCloseTo(350 / 1e6, 12);
    expect(chat.endMs! - chat.startMs).toBeGreaterThan(0);
    expect(chat.messages?.input.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(chat.messages?.output[0]?.toolCalls[0]?.name).toBe('write_file');
    expect(chat.messages?.finishReason).toBe('toolUse');
    expect(chat.events.map((e) => e.name)).toContain('gen_ai.choice');
    expect(chat.attributes).toContainEqual(['gen_ai.operation.name', 'chat']);
  });

  it('an OpenAI Agents (OpenInference) turn: the generation reads its flattened messages', async () => {
    const tree = await stepTree('openai-agents/success', 3);
    const generation = tree?.spans.find((s) => s.name === 'generation');
    expect(tree?.spans[0]?.name).toBe('turn');
    expect(generation?.depth).toBe(1);
    expect(generation?.messages?.conventions).toEqual(['openinference']);
    expect(generation?.messages?.output[0]?.content).toBe('Done: the typo in README.md is fixed.');
    expect(generation?.messages?.finishReason).toBe('stop');
  });

  it('a Vercel AI step is the model call itself, with its prompt and answer', async () => {
    const tree = await stepTree('ai-sdk-6/success', 1);
    expect(tree?.spans).toHaveLength(1);
    expect(tree?.spans[0]?.messages?.input[0]?.content).toBe('Fix the typo in README.md');
    expect(tree?.spans[0]?.messages?.output[0]?.toolCalls[0]?.name).toBe('read_file');
  });

  it("a run's whole trace, in tree order from its root", async () => {
    const tree = await runSpanTree(server.database.db, {
      projectId: projects['ai-sdk-6/success']!.projectId,
      runId: runs['ai-sdk-6/success']!,
      prices: server.runtime.prices,
    });
    expect(tree?.spans.map((s) => [s.depth, s.name])).toEqual([
      [0, 'ai.generateText'],
      [1, 'ai.generateText.doGenerate'],
      [1, 'ai.toolCall'],
      [1, 'ai.generateText.doGenerate'],
      [1, 'ai.toolCall'],
      [1, 'ai.generateText.doGenerate'],
    ]);
    expect(tree).toMatchObject({ total: 6, capped: false, limit: SPAN_TREE_LIMIT });
  });

  it('a run or step of another project is not there (null, and 404 from the routes)', async () => {
    const capture = 'strands-ts/success';
    expect(await stepTree(capture, 2, other.projectId)).toBeNull();
    expect(await stepTree(capture, 99)).toBeNull();
    expect(
      await runSpanTree(server.database.db, {
        projectId: other.projectId,
        runId: runs[capture]!,
        prices: server.runtime.prices,
      }),
    ).toBeNull();
    const runPath = `/runs/${encodeURIComponent(runs[capture]!)}`;
    const own = `?project=${encodeURIComponent(`strands-ts-success-${kind}`)}`;
    const elsewhere = `?project=${encodeURIComponent(`other-${kind}`)}`;
    const ok = await fetch(`${server.url}${runPath}/steps/2/spans${own}`);
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as SpanTree).spans[1]?.name).toBe('chat');
    const whole = await fetch(`${server.url}${runPath}/spans${own}`);
    expect(((await whole.json()) as SpanTree).total).toBe(9);
    for (const path of [`${runPath}/steps/2/spans${elsewhere}`, `${runPath}/spans${elsewhere}`]) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status, path).toBe(404);
    }
    expect((await fetch(`${server.url}${runPath}/steps/0/spans${own}`)).status).toBe(400);
  });

  it(`caps a tree at ${SPAN_TREE_LIMIT} spans and says how many it had`, async () => {
    const project = await server.newProject(`wide-${kind}`);
    const traceId = 'cd'.repeat(16);
    const nanos = (ms: number) => `${ms}000000`;
    const start = Date.now() - 60_000;
    const span = (
      spanId: string,
      parent: string | null,
      name: string,
      attrs: object[],
      ms = 0,
    ) => ({
      traceId,
      spanId,
      ...(parent ? { parentSpanId: parent } : {}),
      name,
      kind: 1,
      startTimeUnixNano: nanos(start + ms),
      endTimeUnixNano: nanos(start + ms + 5),
      attributes: attrs,
    });
    const step = span('1'.repeat(16), null, 'step 1', [
      { key: 'loop.step', value: { intValue: 1 } },
      { key: 'loop.action', value: { stringValue: 'fan_out' } },
    ]);
    const children = Array.from({ length: SPAN_TREE_LIMIT + 20 }, (_, i) =>
      span((i + 0x100).toString(16).padStart(16, '0'), '1'.repeat(16), `child ${i}`, [], i + 1),
    );
    const response = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${project.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        resourceSpans: [
          { resource: { attributes: [] }, scopeSpans: [{ spans: [step, ...children] }] },
        ],
      }),
    });
    expect(response.status).toBe(200);
    await server.settle(project.projectId);
    const tree = await stepSpanTree(server.database.db, {
      projectId: project.projectId,
      runId: traceId,
      ordinal: 1,
      prices: server.runtime.prices,
    });
    expect(tree).toMatchObject({ total: SPAN_TREE_LIMIT + 21, capped: true });
    expect(tree?.spans).toHaveLength(SPAN_TREE_LIMIT);
    expect(tree?.spans[0]?.name).toBe('step 1');
    expect(tree?.spans[1]?.name).toBe('child 0');
    // Asked for more, the same tree answers with more, up to what it has.
    const own = `?project=wide-${kind}`;
    const runPath = `/runs/${traceId}/steps/1/spans${own}`;
    const wider = await fetch(`${server.url}${runPath}&limit=${SPAN_TREE_LIMIT + 10}`);
    expect(wider.status).toBe(200);
    const widerTree = (await wider.json()) as SpanTree;
    expect(widerTree).toMatchObject({ limit: SPAN_TREE_LIMIT + 10, capped: true });
    expect(widerTree.spans).toHaveLength(SPAN_TREE_LIMIT + 10);
    const whole = await fetch(`${server.url}/runs/${traceId}/spans${own}&limit=${SPAN_TREE_MAX}`);
    const wholeTree = (await whole.json()) as SpanTree;
    expect(wholeTree).toMatchObject({ total: SPAN_TREE_LIMIT + 21, capped: false });
    expect(wholeTree.spans.map((s) => s.depth)).toEqual([0, ...children.map(() => 1)]);
    for (const limit of ['0', '-1', '1.5', 'abc', '1e3', String(SPAN_TREE_MAX + 1), '']) {
      const refused = await fetch(`${server.url}${runPath}&limit=${limit}`);
      expect(refused.status, limit).toBe(400);
      expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
        `limit must be a whole number from 1 to ${SPAN_TREE_MAX}`,
      );
    }
  });
});
