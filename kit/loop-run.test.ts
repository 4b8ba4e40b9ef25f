import { describe, expect, it } from 'vitest';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import type { ReadableSpan } from '@opentelemetry/sdk-trace';
import { classifyExitReason } from '../trajectory/exit-reason';
import type { ExitCategory } from '../trajectory/exit-categories';
import {
  canonicalActionHash,
  describeTermination,
  startRun,
  stateHash,
  terminationFromGuard,
  ToolError,
} from './index';
import type { RunOptions, Termination } from './index';

function setup(options: Partial<RunOptions> = {}) {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  let now = Date.UTC(2026, 2, 2, 9, 0, 0);
  const clock = { now: () => now, advance: (ms: number) => (now += ms) };
  const run = startRun(provider.getTracer('kit-test'), {
    goal: 'Bring the orders service back up',
    clock: clock.now,
    ...options,
  });
  const spans = () => exporter.getFinishedSpans();
  const named = (prefix: string) => spans().filter((s) => s.name.startsWith(prefix));
  return { run, clock, spans, named };
}

const attrs = (span: ReadableSpan | undefined) => span?.attributes ?? {};
const ms = (time: readonly [number, number]) => time[0] * 1000 + time[1] / 1e6;

describe('run and step spans carry the conventions', () => {
  it('puts goal, agent, variant, run id, session, tags and limits on the root, and the exit on its end', () => {
    const { run, named } = setup({
      agent: 'ops-agent',
      variant: 'guard',
      runId: 'run-1',
      sessionId: 'incident-42',
      tags: ['on-call', 'orders'],
      limits: { maxSteps: 12, maxUsd: 0.5, wallClockMs: 600_000 },
      progressDirection: 'up',
    });
    run.end({ kind: 'escalated', handOver: 'Grant storage.objects.create', cause: 'permission' });
    const root = named('invoke_agent')[0];
    expect(attrs(root)).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'loop.goal': 'Bring the orders service back up',
      'loop.agent': 'ops-agent',
      'loop.variant': 'guard',
      'loop.run.id': 'run-1',
      'loop.session.id': 'incident-42',
      'loop.tags': ['on-call', 'orders'],
      'loop.limits.max_steps': 12,
      'loop.limits.max_usd': 0.5,
      'loop.limits.wall_clock_ms': 600_000,
      'loop.progress.direction': 'up',
      'loop.exit.reason': 'escalated',
      'loop.escalation': 'Grant storage.objects.create',
    });
    expect(JSON.parse(String(attrs(root)['loop.exit.detail']))).toEqual({
      handOver: 'Grant storage.objects.create',
      cause: 'permission',
    });
    expect(root?.parentSpanContext).toBeUndefined();
  });

  it('names the step action with its canonical hash, state of the named fields, progress and verdict', () => {
    const { run, named } = setup({ runId: 'run-2', stateFields: ['health', 'databaseUrl'] });
    const step = run.step();
    step.act('restart_service', { service: ' orders ', graceful: true });
    step.observe({
      state: { health: 'down', databaseUrl: 'postgres://db-old', restarts: 3 },
      result: 'restart ok',
      progress: 1,
      contextTokens: 2400,
    });
    step.verify('fail', { source: 'environment', fields: { healthz_200: false } });
    step.end();
    run.end({ kind: 'goal_met' });
    const span = named('step 1')[0];
    expect(span?.name).toBe('step 1 restart_service');
    expect(attrs(span)).toMatchObject({
      'loop.step': 1,
      'loop.run.id': 'run-2',
      'loop.action': 'restart_service',
      'loop.action.args': '{"service":" orders ","graceful":true}',
      'loop.action.hash': canonicalActionHash('restart_service', {
        graceful: true,
        service: 'orders',
      }),
      'loop.state.hash': stateHash({ health: 'down', databaseUrl: 'postgres://db-old' }),
      'gen_ai.tool.call.result': 'restart ok',
      'loop.progress': 1,
      'loop.context_tokens': 2400,
      'loop.verdict': 'fail',
      'loop.verdict.source': 'environment',
      'loop.verdict.fields': '{"healthz_200":false}',
    });
    // The restart counter is not a named field: an unchanged world hashes the same.
    expect(
      stateHash({ health: 'down', databaseUrl: 'x', restarts: 1 }, ['health', 'databaseUrl']),
    ).toBe(stateHash({ databaseUrl: 'x', health: 'down', restarts: 9 }, ['databaseUrl', 'health']));
  });

  it('records LLM and tool calls as GenAI child spans of the step, timed by the clock', async () => {
    const { run, clock, named } = setup();
    const step = run.step();
    const reply = await step.callLlm(
      { model: 'gpt-4.1', provider: 'openai' },
      () => {
        clock.advance(1500);
        return { tool: 'check_health' };
      },
      () => ({
        inputTokens: 1800,
        outputTokens: 60,
        cacheReadTokens: 1200,
        finishReason: 'tool_calls',
      }),
    );
    const result = await step.callTool(reply.tool, { service: 'orders' }, () => {
      clock.advance(400);
      return { status: 'down' };
    });
    step.end();
    run.end({ kind: 'model_stopped' });
    expect(result).toEqual({ status: 'down' });
    const stepSpan = named('step 1')[0];
    const chat = named('chat')[0];
    const tool = named('execute_tool')[0];
    expect(chat?.kind).toBe(SpanKind.CLIENT);
    expect(chat?.name).toBe('chat gpt-4.1');
    expect(chat?.parentSpanContext?.spanId).toBe(stepSpan?.spanContext().spanId);
    expect(attrs(chat)).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4.1',
      'gen_ai.response.model': 'gpt-4.1',
      'gen_ai.usage.input_tokens': 1800,
      'gen_ai.usage.output_tokens': 60,
      'gen_ai.usage.cache_read.input_tokens': 1200,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(ms(chat!.endTime) - ms(chat!.startTime)).toBe(1500);
    expect(tool?.parentSpanContext?.spanId).toBe(stepSpan?.spanContext().spanId);
    expect(attrs(tool)).toMatchObject({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'check_health',
      'gen_ai.tool.call.arguments': '{"service":"orders"}',
      'gen_ai.tool.call.result': '{"status":"down"}',
    });
    expect(ms(tool!.endTime) - ms(tool!.startTime)).toBe(400);
    // The step takes the tool call as its action, and its result.
    expect(attrs(stepSpan)).toMatchObject({
      'loop.action': 'check_health',
      'gen_ai.tool.call.result': '{"status":"down"}',
    });
  });

  it('marks a failed tool call with its class on the tool span and the step, and re-throws', async () => {
    const { run, named } = setup();
    const step = run.step();
    await expect(
      step.callTool('write_test_object', { bucket: 'gs://b' }, () => {
        throw new ToolError('403 Forbidden', 'permission', 'PermissionDenied');
      }),
    ).rejects.toThrow('403 Forbidden');
    step.end();
    run.end({ kind: 'hard_error', error: 'unexpected' });
    const tool = named('execute_tool')[0];
    expect(tool?.status).toEqual({ code: SpanStatusCode.ERROR, message: '403 Forbidden' });
    expect(attrs(tool)).toMatchObject({
      'loop.error.class': 'permission',
      'error.type': 'PermissionDenied',
    });
    expect(attrs(named('step 1')[0])['loop.error.class']).toBe('permission');
    expect(named('invoke_agent')[0]?.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('ends steps left open when the run ends, at the run’s end time', () => {
    const { run, clock, named } = setup();
    run.step({ action: 'list_invoices', args: { page: 1 } });
    clock.advance(5000);
    run.end({ kind: 'cancelled', by: 'operator' });
    const [step] = named('step 1');
    expect(step?.ended).toBe(true);
    expect(step?.endTime).toEqual(named('invoke_agent')[0]?.endTime);
  });
});

describe('every termination names a reason the server files in the right category', () => {
  const cases: [Termination, ExitCategory, string | null][] = [
    [{ kind: 'goal_met' }, 'goal_satisfied', null],
    [{ kind: 'model_stopped' }, 'model_stopped', null],
    [{ kind: 'step_ceiling', steps: 12, cap: 12 }, 'budget_exhausted', 'steps'],
    [{ kind: 'cost_budget', spentUsd: 2.1, capUsd: 2 }, 'budget_exhausted', 'cost'],
    [{ kind: 'token_budget', tokens: 2e6, cap: 2e6 }, 'budget_exhausted', 'tokens'],
    [{ kind: 'deadline', elapsedMs: 9e5, capMs: 9e5 }, 'budget_exhausted', 'deadline'],
    [{ kind: 'budget_exhausted', budget: 'cost' }, 'budget_exhausted', 'cost'],
    [{ kind: 'no_progress', signal: 'repeated_call', step: 3 }, 'no_progress', null],
    [{ kind: 'tool_circuit_open', tool: 'run_tests', failures: 3 }, 'tool_circuit_open', null],
    [{ kind: 'goal_drift' }, 'goal_drift', null],
    [{ kind: 'escalated', handOver: 'Grant access' }, 'escalated', null],
    [{ kind: 'cancelled', by: 'operator' }, 'cancelled', null],
    [{ kind: 'hard_error', error: 'boom' }, 'hard_error', null],
  ];
  it.each(cases)('%o → %s', (termination, category, kind) => {
    const { reason, detail } = describeTermination(termination);
    expect(classifyExitReason({ raw: reason, detail, ended: true, source: 'attribute' })).toEqual({
      category,
      kind,
    });
  });
});

describe('the local guard applies the server’s rules', () => {
  const restartStep = (run: ReturnType<typeof setup>['run'], args: unknown) =>
    run
      .step({ action: 'restart_service', args })
      .observe({ state: { health: 'down' }, result: 'restart ok' })
      .end();

  it('stops at the declared step limit', () => {
    const { run } = setup({ limits: { maxSteps: 2 } });
    expect(run.check()).toBeNull();
    run
      .step({ action: 'a' })
      .observe({ state: { n: 1 } })
      .end();
    run
      .step({ action: 'b' })
      .observe({ state: { n: 2 } })
      .end();
    expect(run.check()).toEqual({ kind: 'step_ceiling', steps: 2, cap: 2 });
  });

  it('stops on the second identical call with nothing changed, and the guard says terminate', () => {
    const { run } = setup();
    run
      .step({ action: 'check_health' })
      .observe({ state: { health: 'down' } })
      .end();
    restartStep(run, { service: 'orders' });
    expect(run.check()).toBeNull();
    restartStep(run, { service: ' orders' });
    expect(run.check()).toMatchObject({ kind: 'no_progress', signal: 'repeated_call', step: 3 });
    const verdict = run.guard();
    expect(verdict).toMatchObject({ decision: 'terminate', reasonCode: 'repeated_call', step: 3 });
    expect(terminationFromGuard(verdict)).toMatchObject({ kind: 'no_progress', step: 3 });
  });

  it('sees A/B/A as a cycle, and can escalate it with a hand-over', () => {
    const { run } = setup();
    for (const fix of ['A', 'B', 'A'])
      run
        .step({ action: 'apply_fix', args: { fix } })
        .observe({ state: { file: fix } })
        .end();
    expect(run.flags().revisit).toEqual({ step: 3, of: 1, cycleLength: 2 });
    expect(run.check()).toMatchObject({ kind: 'no_progress', signal: 'cyclical_loop', step: 3 });
    expect(terminationFromGuard(run.guard(), { handOver: 'Choose A or B' })).toEqual({
      kind: 'escalated',
      handOver: 'Choose A or B',
      cause: 'cyclical_loop',
    });
  });

  it('opens the circuit after three failures of one tool; a stall stops only when asked', () => {
    const { run } = setup();
    for (let n = 0; n < 3; n++)
      run
        .step({ action: 'run_tests', args: { attempt: n } })
        .fail('transient', 'ECONNREFUSED')
        .end();
    expect(run.check()).toMatchObject({ kind: 'tool_circuit_open', tool: 'run_tests', step: 3 });

    const stalled = setup().run;
    for (let n = 0; n < 6; n++)
      stalled
        .step({ action: `edit_${n}` })
        .observe({ state: { v: n }, progress: 5 })
        .end();
    expect(stalled.flags().stall).toEqual({ step: 6 });
    expect(stalled.check()).toBeNull();
    expect(stalled.check({ stall: true })).toMatchObject({
      kind: 'no_progress',
      signal: 'stalled',
    });
  });

  it('prices model calls for the cost budget and keeps totals', () => {
    const { run } = setup({
      limits: { maxUsd: 0.01 },
      price: (model, usage) => (model === 'gpt-4.1' ? ((usage.inputTokens ?? 0) * 2) / 1e6 : null),
    });
    const step = run.step({ action: 'plan' });
    step.llm({ model: 'gpt-4.1', inputTokens: 4000, outputTokens: 100 });
    step.llm({ model: 'gpt-4.1', inputTokens: 2000, outputTokens: 100 });
    step.end();
    expect(run.totals()).toMatchObject({ steps: 1, inputTokens: 6000, outputTokens: 200 });
    expect(run.totals().costUsd).toBeCloseTo(0.012, 10);
    expect(run.check()).toEqual({ kind: 'cost_budget', spentUsd: 0.012, capUsd: 0.01 });
  });
});
