// The local guard and `POST /api/v1/guard` must agree: same trajectory, same decision.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSender } from '@/e2e/support/otel';
import type { Sender } from '@/e2e/support/otel';
import { startTestServer } from '@/e2e/support/test-server';
import type { TestServer } from '@/e2e/support/test-server';
import { remoteGuard, startRun } from './index';
import type { LoopRun } from './index';

describe('remoteGuard', () => {
  let server: TestServer;
  let sender: Sender;

  beforeAll(async () => {
    server = await startTestServer('pglite');
    sender = createSender({ url: server.url, key: server.key });
  });
  afterAll(async () => {
    await sender?.shutdown();
    await server?.close();
  });

  const agree = async (run: LoopRun, guard: ReturnType<typeof remoteGuard>) => {
    const local = run.guard();
    const remote = await guard(run.id);
    expect({ decision: remote.decision, reasonCode: remote.reasonCode, step: remote.step }).toEqual(
      {
        decision: local.decision,
        reasonCode: local.reasonCode,
        step: local.step,
      },
    );
    return remote;
  };

  it('answers what the local guard answers after every step of a running run', async () => {
    const guard = remoteGuard({ url: server.url, key: server.key, flush: sender.flush });
    const run = startRun(sender.tracer, {
      goal: 'Make the failing test pass',
      agent: 'coder',
      runId: 'remote-guard-cycle',
      limits: { maxSteps: 10 },
    });
    const decisions: string[] = [];
    for (const fix of ['A', 'B', 'A']) {
      run
        .step({ action: 'apply_fix', args: { fix } })
        .observe({ state: { file: fix } })
        .end();
      decisions.push((await agree(run, guard)).decision);
    }
    run.end({ kind: 'no_progress', signal: 'cyclical_loop', step: 3 });
    expect(decisions).toEqual(['continue', 'continue', 'escalate']);
  });

  it('holds a running run to its declared step limit: the run span is not exported yet', async () => {
    const guard = remoteGuard({ url: server.url, key: server.key, flush: sender.flush });
    const run = startRun(sender.tracer, {
      goal: 'Summarise the open issues',
      agent: 'coder',
      runId: 'remote-guard-limit',
      limits: { maxSteps: 2 },
    });
    const verdicts = [];
    for (const issue of [1, 2]) {
      run
        .step({ action: 'read_issue', args: { issue } })
        .observe({ state: { read: issue } })
        .end();
      verdicts.push(await agree(run, guard));
    }
    expect(verdicts.map((v) => v.decision)).toEqual(['continue', 'terminate']);
    expect(verdicts[1]).toMatchObject({ reasonCode: 'call_limit_exceeded', step: 2 });
    expect(verdicts[1]?.evidence).toBe('2 steps taken; loop.limits.max_steps is 2');
    run.end({ kind: 'step_ceiling', steps: 2, cap: 2 });
  });

  it('terminates the restart loop at its repeat, and says why when the server refuses', async () => {
    const guard = remoteGuard({ url: server.url, key: server.key, flush: sender.flush });
    const run = startRun(sender.tracer, { goal: 'Bring the orders service back up' });
    for (const action of ['check_health', 'restart_service', 'restart_service']) {
      run
        .step({ action, args: { service: 'orders' } })
        .observe({ state: { health: 'down' } })
        .end();
    }
    const verdict = await agree(run, guard);
    expect(verdict).toMatchObject({ decision: 'terminate', reasonCode: 'repeated_call', step: 3 });
    expect(verdict.evidence).toContain('restart_service');
    run.end({ kind: 'no_progress', signal: 'repeated_call', step: 3 });

    await expect(remoteGuard({ url: server.url, key: 'lsk_wrong' })(run.id)).rejects.toThrow(/401/);
  });
});
