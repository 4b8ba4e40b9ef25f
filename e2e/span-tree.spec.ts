// A step's whole story in the browser: the span tree of a selected step with a model call's
// messages, from real captures (Strands, OpenAI Agents via OpenInference, the Vercel AI SDK) sent
// byte for byte to /v1/traces; the run's whole trace as a tree, also for a run without steps; the
// raw view with its copy button; hostile message text staying text; 390 px and 1440 px, light and
// dark, kept as screenshots.
import { join } from 'node:path';
import { readCapture, requestBody } from '../conformance/read-capture';
import { createProjectKey, uniqueName } from './support/projects';
import { LOOKS, expectNoSidewaysScroll, look } from './support/layout';
import { keepScreen } from './support/screens';
import { expect, test } from './support/fixtures';

const CAPTURES = join(import.meta.dirname, '..', 'conformance', 'captures');
const WINDOW = 'from=2000-01-01T00:00:00Z&to=2999-01-01T00:00:00Z';
const HOSTILE = '<script>window.__pwned = 1</script><img src=x onerror="window.__pwned = 2">';

interface Sent {
  project: string;
  runId: string;
}

async function sendCapture(baseURL: string, capture: string): Promise<Sent> {
  const project = uniqueName(capture.replace('/', '-'));
  const key = await createProjectKey(project);
  const dir = join(CAPTURES, capture);
  for (const request of readCapture(dir).requests) {
    const headers: Record<string, string> = {
      authorization: `Bearer ${key}`,
      'content-type': request.contentType,
    };
    if (request.contentEncoding) headers['content-encoding'] = request.contentEncoding;
    const response = await fetch(`${baseURL}/v1/traces`, {
      method: 'POST',
      headers,
      body: new Uint8Array(requestBody(dir, request)),
    });
    expect(response.status, `${capture}/${request.file}`).toBe(200);
  }
  return { project, runId: await onlyRun(baseURL, key) };
}

async function onlyRun(baseURL: string, key: string): Promise<string> {
  for (let k = 0; k < 100; k++) {
    const response = await fetch(`${baseURL}/api/v1/runs?${WINDOW}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    // The page settles the run it shows: listed is enough.
    const { runs } = (await response.json()) as { runs: { id: string }[] };
    if (runs.length === 1) return runs[0]!.id;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('the project lists no single run');
}

/** One OTLP/JSON request: `loop.step` spans with model calls below them, or lone spans. */
async function sendJson(baseURL: string, key: string, spans: object[]): Promise<void> {
  const response = await fetch(`${baseURL}/v1/traces`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      resourceSpans: [
        {
          resource: { attributes: [{ key: 'service.name', value: { stringValue: 'e2e' } }] },
          scopeSpans: [{ spans }],
        },
      ],
    }),
  });
  expect(response.status).toBe(200);
}

const nanos = (ms: number) => `${Math.round(ms)}000000`;
const str = (key: string, value: string) => ({ key, value: { stringValue: value } });
const int = (key: string, value: number) => ({ key, value: { intValue: value } });

let strands: Sent;
let openai: Sent;
let vercel: Sent;
let hostile: Sent;
let stepless: Sent;
let wide: Sent;
const WIDE_SPANS = 620;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(120_000);
  const url = baseURL ?? '';
  strands = await sendCapture(url, 'strands-ts/success');
  openai = await sendCapture(url, 'openai-agents/success');
  vercel = await sendCapture(url, 'ai-sdk-6/success');

  const t = Date.now() - 600_000;
  const hostileProject = uniqueName('hostile-msgs');
  const hostileKey = await createProjectKey(hostileProject);
  const traceId = 'e2'.repeat(16);
  await sendJson(url, hostileKey, [
    {
      traceId,
      spanId: 'a1'.repeat(8),
      name: 'step 1',
      kind: 1,
      startTimeUnixNano: nanos(t),
      endTimeUnixNano: nanos(t + 900),
      attributes: [int('loop.step', 1), str('loop.action', 'ask'), str('loop.goal', 'hostile')],
    },
    {
      traceId,
      spanId: 'b2'.repeat(8),
      parentSpanId: 'a1'.repeat(8),
      name: 'chat gpt-4o',
      kind: 3,
      startTimeUnixNano: nanos(t + 100),
      endTimeUnixNano: nanos(t + 800),
      attributes: [
        str('gen_ai.operation.name', 'chat'),
        str('gen_ai.request.model', 'gpt-4o'),
        int('gen_ai.usage.input_tokens', 120),
        int('gen_ai.usage.output_tokens', 30),
        str(
          'gen_ai.input.messages',
          JSON.stringify([{ role: 'user', parts: [{ type: 'text', content: HOSTILE }] }]),
        ),
        str(
          'gen_ai.output.messages',
          JSON.stringify([
            {
              role: 'assistant',
              parts: [{ type: 'text', content: `${'long answer '.repeat(200)}END` }],
              finish_reason: 'stop',
            },
          ]),
        ),
      ],
    },
  ]);
  hostile = { project: hostileProject, runId: await onlyRun(url, hostileKey) };

  const steplessProject = uniqueName('stepless');
  const steplessKey = await createProjectKey(steplessProject);
  const lone = 'f3'.repeat(16);
  await sendJson(url, steplessKey, [
    {
      traceId: lone,
      spanId: 'c3'.repeat(8),
      name: 'handle request',
      kind: 2,
      startTimeUnixNano: nanos(t),
      endTimeUnixNano: nanos(t + 500),
      attributes: [str('http.route', '/orders')],
    },
    {
      traceId: lone,
      spanId: 'd4'.repeat(8),
      parentSpanId: 'c3'.repeat(8),
      name: 'select orders',
      kind: 3,
      startTimeUnixNano: nanos(t + 50),
      endTimeUnixNano: nanos(t + 300),
      status: { code: 2, message: 'timeout' },
      attributes: [str('db.system', 'postgresql')],
    },
  ]);
  stepless = { project: steplessProject, runId: await onlyRun(url, steplessKey) };

  // A trace wider than the view's first answer: a batch job's root and its many calls.
  const wideProject = uniqueName('wide-trace');
  const wideKey = await createProjectKey(wideProject);
  const batch = 'a7'.repeat(16);
  const root = 'b8'.repeat(8);
  await sendJson(url, wideKey, [
    {
      traceId: batch,
      spanId: root,
      name: 'batch job',
      kind: 1,
      startTimeUnixNano: nanos(t),
      endTimeUnixNano: nanos(t + WIDE_SPANS * 10),
      attributes: [],
    },
    ...Array.from({ length: WIDE_SPANS - 1 }, (_, i) => ({
      traceId: batch,
      spanId: (i + 1).toString(16).padStart(16, '0'),
      parentSpanId: root,
      name: `item ${i + 1}`,
      kind: 1,
      startTimeUnixNano: nanos(t + 1 + i * 10),
      endTimeUnixNano: nanos(t + 9 + i * 10),
      attributes: [int('item.index', i + 1)],
    })),
  ]);
  wide = { project: wideProject, runId: await onlyRun(url, wideKey) };
});

const runPage = (sent: Sent, query: string) =>
  `/runs/${encodeURIComponent(sent.runId)}?project=${encodeURIComponent(sent.project)}&${query}`;

test('a Strands step opens its span tree: the model call with its messages and the tool below it', async ({
  page,
}) => {
  await page.goto(runPage(strands, 'step=2'));
  const tree = page.getByRole('region', { name: 'Spans of step 2' });
  await expect(tree.getByRole('button', { name: /execute_agent_loop_cycle/ })).toBeVisible();
  await expect(tree.getByRole('button', { name: /^chat model call/ })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await expect(tree.getByRole('button', { name: /execute_tool write_file tool/ })).toBeVisible();
  const input = tree.getByRole('region', { name: 'Input messages' });
  await expect(input.getByRole('article', { name: 'Input 1: user' })).toContainText(
    'Fix the typo in README.md',
  );
  await expect(input.getByRole('article', { name: 'Input 3: tool' })).toContainText(
    'contents of README.md: export const x = 1;',
  );
  const output = tree.getByRole('region', { name: 'Output messages' });
  await expect(output).toContainText('calls write_file');
  await expect(tree).toContainText('toolUse');
  await expect(tree).toContainText('100 in / 10 out');
  // j goes to the next step: its own tree is asked for, the one before is not shown.
  await page.getByRole('grid', { name: 'Steps' }).focus();
  await page.keyboard.press('j');
  const next = page.getByRole('region', { name: 'Spans of step 3' });
  await expect(next.getByRole('article', { name: 'Output 1: assistant' })).toContainText(
    'Done: the typo in README.md is fixed.',
  );
});

test('an OpenAI Agents (OpenInference) turn shows the generation with its flattened messages', async ({
  page,
}) => {
  await page.goto(runPage(openai, 'step=1'));
  const tree = page.getByRole('region', { name: 'Spans of step 1' });
  await expect(tree.getByRole('button', { name: /^turn loop cycle/ })).toBeVisible();
  await expect(tree.getByRole('article', { name: 'Input 1: system' })).toContainText(
    'You are a careful engineer.',
  );
  await expect(tree.getByRole('article', { name: 'Output 1: assistant' })).toContainText(
    'calls read_file',
  );
  await expect(tree).toContainText('read from openinference');
  await expect(tree).toContainText('tool_calls');
});

test('a Vercel AI SDK step is its model call: prompt, tool call and finish reason', async ({
  page,
}) => {
  await page.goto(runPage(vercel, 'step=3'));
  const tree = page.getByRole('region', { name: 'Spans of step 3' });
  await expect(tree.getByRole('article', { name: 'Input 3: tool' })).toContainText(
    'contents of README.md',
  );
  await expect(tree.getByRole('article', { name: 'Output 1: assistant' })).toContainText(
    'Done: the typo in README.md is fixed.',
  );
  await expect(tree).toContainText('read from vercel-ai');
});

test('hostile message text stays text, long text folds, and the raw view copies JSON', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.goto(runPage(hostile, 'step=1'));
  const tree = page.getByRole('region', { name: 'Spans of step 1' });
  const input = tree.getByRole('article', { name: 'Input 1: user' });
  await expect(input).toContainText(HOSTILE);
  expect(await input.locator('img, script').count()).toBe(0);
  expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();

  const output = tree.getByRole('article', { name: 'Output 1: assistant' });
  await expect(output).not.toContainText('END');
  await output.getByRole('button', { name: /^show all \(2,403 characters\)/ }).click();
  await expect(output).toContainText('END');

  await tree.getByText(/^Raw: \d+ attributes/).click();
  await tree.getByRole('button', { name: 'Copy JSON' }).click();
  await expect(tree.getByRole('status').filter({ hasText: 'Copied.' })).toBeVisible();
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as {
    name: string;
    attributes: Record<string, unknown>;
  };
  expect(copied.name).toBe('chat gpt-4o');
  const sent = JSON.parse(String(copied.attributes['gen_ai.input.messages'])) as {
    parts: { content: string }[];
  }[];
  expect(sent[0]?.parts[0]?.content).toBe(HOSTILE);
});

test("a run's whole trace is a tree: a tab on a run with steps, the view of a run without", async ({
  page,
}) => {
  await page.goto(runPage(strands, 'step=1'));
  await page.getByRole('tab', { name: 'Trace' }).click();
  await expect(page).toHaveURL(/view=trace/);
  const trace = page.getByRole('region', { name: 'Trace' });
  await expect(trace).toContainText('9 spans');
  await expect(trace.getByRole('button').first()).toContainText('invoke_agent coder');
  await trace.getByRole('button', { name: /^invoke_agent coder/ }).click();
  await expect(trace.getByRole('article', { name: 'Output 1: assistant' })).toContainText(
    'Done: the typo in README.md is fixed.',
  );

  await page.goto(runPage(stepless, ''));
  await expect(page.getByText('This run has no steps')).toBeVisible();
  const lone = page.getByRole('region', { name: 'Trace' });
  await expect(lone.getByRole('button', { name: /^handle request/ })).toBeVisible();
  await expect(lone.getByRole('button', { name: /select orders span error/ })).toBeVisible();
});

test('a wide trace shows its first 500 spans, then the rest on request, keeping what is open', async ({
  page,
}) => {
  await page.goto(runPage(wide, ''));
  const trace = page.getByRole('region', { name: 'Trace' });
  const notice = trace.getByRole('status');
  await expect(notice).toContainText(`Showing the first 500 of ${WIDE_SPANS} spans`);
  await expect(trace.getByRole('button', { name: /^item 499 / })).toBeVisible();
  await expect(trace.getByRole('button', { name: /^item 500 / })).toHaveCount(0);
  const opened = trace.getByRole('button', { name: /^item 3 / });
  await opened.click();
  await expect(opened).toHaveAttribute('aria-expanded', 'true');
  // The same button above the rows and below them, where a reader who scrolled through is.
  const more = trace.getByRole('button', { name: `Show ${WIDE_SPANS - 500} more` });
  await expect(more).toHaveCount(2);
  await more.last().click();
  await expect(trace.getByRole('button', { name: `item ${WIDE_SPANS - 1} span` })).toBeVisible();
  await expect(trace).toContainText(`${WIDE_SPANS} spans`);
  await expect(trace.getByRole('status')).toHaveCount(0);
  await expect(trace.getByRole('button', { name: /^Show \d+ more$/ })).toHaveCount(0);
  await expect(opened).toHaveAttribute('aria-expanded', 'true');
});

test('the span tree fits 390 px and 1440 px, light and dark', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  for (const l of LOOKS) {
    await look(page, l);
    for (const [name, path] of [
      ['span-tree-strands', runPage(strands, 'step=2')],
      ['span-tree-hostile', runPage(hostile, 'step=1')],
      ['span-tree-trace', runPage(openai, 'view=trace')],
      ['span-tree-wide', runPage(wide, '')],
    ] as const) {
      await page.goto(path);
      await expect(page.getByRole('region', { name: /^(Spans of step|Trace)/ })).toBeVisible();
      await expect(
        page.getByRole('region', { name: /^(Spans of step|Trace)/ }),
      ).not.toHaveAttribute('aria-busy', 'true');
      await page.waitForLoadState('networkidle');
      await expectNoSidewaysScroll(page);
      await keepScreen(page, testInfo, `${name}-${l.name}`);
      // The tree alone too, at full size, to look at.
      await page
        .getByRole('region', { name: /^(Spans of step|Trace)/ })
        .screenshot({ path: testInfo.outputPath(`${name}-${l.name}-tree.png`) });
    }
  }
});
