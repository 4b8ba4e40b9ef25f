import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countFragments } from '@/db/read/count-fragments';
import { TEST_DATABASE_KINDS } from '@/db/test-database';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import type { RunSummary } from '@/lib/api-types';

// Traceloop's LangChain instrumentation without an enclosing span: every LLM call its own trace.
function loneCall(k: number) {
  return {
    traceId: `abc${String(k).padStart(29, '0')}`,
    spanId: `00000000000000${String(k).padStart(2, '0')}`,
    name: 'ChatOpenAI.chat',
    startTimeUnixNano: `${Date.now() - 60_000 + k}000000`,
    endTimeUnixNano: `${Date.now() - 59_000 + k}000000`,
    attributes: [
      { key: 'llm.request.type', value: { stringValue: 'chat' } },
      { key: 'traceloop.span.kind', value: { stringValue: 'llm' } },
      { key: 'gen_ai.request.model', value: { stringValue: 'gpt-4o' } },
      { key: 'gen_ai.usage.prompt_tokens', value: { intValue: 100 } },
    ],
  };
}

describe.each(TEST_DATABASE_KINDS)('traces that cannot be grouped into runs on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(() => server?.close());

  it('are marked as such, counted, and listed with flag=fragment', async () => {
    const body = JSON.stringify({
      resourceSpans: [{ scopeSpans: [{ spans: [1, 2, 3].map(loneCall) }] }],
    });
    const sent = await fetch(`${server.url}/v1/traces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${server.key}`, 'content-type': 'application/json' },
      body,
    });
    expect(sent.status).toBe(200);
    const response = await fetch(`${server.url}/api/v1/runs?flag=fragment`, {
      headers: { authorization: `Bearer ${server.key}` },
    });
    const { runs } = (await response.json()) as { runs: RunSummary[] };
    expect(runs).toHaveLength(3);
    const now = new Date();
    const window = { from: new Date(now.getTime() - 3600_000), to: now };
    expect(await countFragments(server.database.db, { projectId: server.projectId, window })).toBe(
      3,
    );
  });
});
