// (a) The orders service is down because its DATABASE_URL points at a retired host. The agent's
// one remedy is restart_service, which always answers "restart ok". An outside goal check (the
// health probe) refuses every claim; without a guard the loop restarts until its step budget,
// with the guard it stops at the second restart: the same call, nothing changed since.
import { ToolError } from '../kit/index';
import type { SampleInput, Script, Task, World } from './agent-loop';
import type { Random, VirtualClock } from './random';
import { MODELS } from './scripted-model';

export type RestartCause = 'bad-database-url' | 'out-of-memory';

const RETIRED_URL = 'postgres://orders@db-old.internal:5432/orders';
const CURRENT_URL = 'postgres://orders@db-2.internal:5432/orders';

class OrdersService implements World {
  readonly stateFields = ['health', 'databaseUrl'];
  private health: 'down' | 'up' = 'down';
  private restarts = 0;

  constructor(
    private readonly cause: RestartCause,
    private readonly rng: Random,
    private readonly clock: VirtualClock,
  ) {}

  state() {
    // `restarts` changes on every restart, and is not a field the goal depends on.
    return {
      service: 'orders',
      health: this.health,
      databaseUrl: this.cause === 'bad-database-url' ? RETIRED_URL : CURRENT_URL,
      restarts: this.restarts,
    };
  }

  call(tool: string, args: Record<string, unknown>) {
    switch (tool) {
      case 'check_health':
        this.clock.advance(this.rng.int(200, 900));
        return {
          result:
            this.health === 'up'
              ? { status: 'up', http: 200 }
              : {
                  status: 'down',
                  http: 503,
                  error:
                    this.cause === 'bad-database-url'
                      ? 'FATAL: could not connect to db-old.internal:5432: Connection refused'
                      : 'container orders-7f9c OOMKilled (memory limit 512Mi)',
                },
        };
      case 'restart_service':
        this.clock.advance(this.rng.int(8_000, 25_000));
        this.restarts++;
        if (this.cause === 'out-of-memory') this.health = 'up';
        return { result: 'restart ok' };
      default:
        throw new ToolError(`unknown tool ${tool} ${JSON.stringify(args)}`, 'malformed');
    }
  }

  check() {
    const healthy = this.health === 'up';
    return { pass: healthy, fields: { healthz_200: healthy } };
  }
}

function* restartScript(): Script {
  yield {
    kind: 'tool',
    tool: 'check_health',
    args: { service: 'orders' },
    thought: 'The orders service is reported down. Check its health endpoint first.',
  };
  for (let n = 1; ; n++) {
    // Key order differs from call to call; the canonical action hash does not.
    yield {
      kind: 'tool',
      tool: 'restart_service',
      args:
        n % 2 === 1 ? { service: 'orders', graceful: true } : { graceful: true, service: 'orders' },
      thought:
        n === 1
          ? 'The health check fails. Restart the service so it reconnects cleanly.'
          : 'The restart succeeded but the health check still fails. The service may need another restart to come up.',
    };
  }
}

export function restartLoop(input: SampleInput & { cause: RestartCause }): Task {
  const world = new OrdersService(input.cause, input.rng, input.clock);
  return {
    goal: 'The orders service is down: bring it back up (GET /healthz answers 200).',
    agent: 'ops-agent',
    variant: input.variant,
    runId: input.runId,
    model: MODELS['gpt-4.1'],
    limits: { maxSteps: 12 },
    world,
    script: restartScript(),
    controls: { checkEachStep: true, guard: input.variant === 'guard' },
    pauseMs: [2_000, 6_000],
  };
}
