// (b) The nightly orders export moves to a new bucket. The job reports SUCCEEDED and exits 0,
// but its service account may not write to the new bucket, so nothing lands there. The outside
// check (is last night's file in the bucket?) keeps failing field by field; the agent finds the
// 403 in the job's log, confirms it with a probe write, and hands over the one action it cannot
// take itself: granting the permission.
import { ToolError } from '../kit/index';
import type { SampleInput, Script, Task, World } from './agent-loop';
import { MODELS } from './scripted-model';

const JOB = 'nightly-orders-export';
const OLD_BUCKET = 'gs://acme-exports';
const NEW_BUCKET = 'gs://acme-exports-v2';
const SERVICE_ACCOUNT = 'sa-export@acme-data.iam.gserviceaccount.com';

/** The exact action handed to a person. */
export function exportHandOver(date: string): string {
  return `Grant roles/storage.objectCreator on ${NEW_BUCKET} to ${SERVICE_ACCOUNT}, then re-run ${JOB} for ${date}.`;
}

class ExportJob implements World {
  readonly stateFields = ['bucket', 'lastRun', 'objects'];
  private bucket = OLD_BUCKET;
  private lastRun: 'none' | 'SUCCEEDED' = 'none';
  private readonly objects: string[] = [];

  constructor(
    private readonly input: SampleInput,
    readonly date: string,
  ) {}

  state() {
    return { bucket: this.bucket, lastRun: this.lastRun, objects: this.objects.length };
  }

  call(tool: string, args: Record<string, unknown>) {
    const { rng, clock } = this.input;
    clock.advance(rng.int(300, 1_500));
    switch (tool) {
      case 'read_job_config':
        return {
          result: {
            job: JOB,
            schedule: '0 2 * * *',
            bucket: this.bucket,
            prefix: 'orders/',
            format: 'parquet',
            serviceAccount: SERVICE_ACCOUNT,
          },
        };
      case 'update_job_config':
        this.bucket = String(args.bucket);
        return { result: `updated ${JOB}: bucket = ${this.bucket}` };
      case 'run_job':
        clock.advance(rng.int(240_000, 330_000));
        this.lastRun = 'SUCCEEDED';
        return { result: { job: JOB, date: this.date, status: 'SUCCEEDED', exitCode: 0 } };
      case 'list_bucket':
        return { result: { bucket: args.bucket, prefix: args.prefix, objects: this.objects } };
      case 'read_job_logs':
        return {
          result: [
            `INFO  ${JOB} ${this.date}: 48213 rows read from orders`,
            `WARN  upload orders/${this.date}.parquet failed: 403 Forbidden: ${SERVICE_ACCOUNT} does not have storage.objects.create access to ${NEW_BUCKET}`,
            'INFO  0 files written; exiting 0',
          ].join('\n'),
        };
      case 'write_test_object':
        throw new ToolError(
          `403 Forbidden: ${SERVICE_ACCOUNT} does not have storage.objects.create access to ${NEW_BUCKET}/orders/_probe`,
          'permission',
          'PermissionDenied',
        );
      default:
        throw new ToolError(`unknown tool ${tool}`, 'malformed');
    }
  }

  check() {
    return {
      pass: this.objects.length > 0,
      fields: {
        job_points_at_new_bucket: this.bucket === NEW_BUCKET,
        job_succeeded: this.lastRun === 'SUCCEEDED',
        file_in_new_bucket: this.objects.length > 0,
      },
    };
  }
}

function* exportScript(date: string): Script {
  const tool = (name: string, args: Record<string, unknown>, thought: string) =>
    ({ kind: 'tool', tool: name, args, thought }) as const;
  yield tool('read_job_config', { job: JOB }, 'Read the job configuration before changing it.');
  yield tool(
    'update_job_config',
    { job: JOB, bucket: NEW_BUCKET },
    'Point the export at the new bucket.',
  );
  yield tool(
    'run_job',
    { job: JOB, date },
    'Run last night’s export again to fill the new bucket.',
  );
  yield tool(
    'list_bucket',
    { bucket: NEW_BUCKET, prefix: `orders/${date}` },
    'The job says SUCCEEDED, yet the check finds no file. List the bucket myself.',
  );
  yield tool(
    'read_job_logs',
    { job: JOB, date },
    'The bucket is empty although the job succeeded: read the job log.',
  );
  const probe = yield tool(
    'write_test_object',
    { bucket: NEW_BUCKET, name: 'orders/_probe' },
    'The log shows a 403 on upload. Confirm with a probe write as the job’s account.',
  );
  yield {
    kind: 'escalate',
    handOver: exportHandOver(date),
    cause: probe?.error?.errorClass ?? 'permission',
  };
}

export function nightlyExport(input: SampleInput): Task {
  const date = new Date(input.clock.now() - 86_400_000).toISOString().slice(0, 10);
  return {
    goal: `Move ${JOB} from ${OLD_BUCKET} to ${NEW_BUCKET} and confirm last night’s file landed there.`,
    agent: 'data-ops-agent',
    variant: input.variant,
    runId: input.runId,
    model: MODELS['claude-sonnet-4'],
    limits: { maxSteps: 15, maxUsd: 1 },
    world: new ExportJob(input, date),
    script: exportScript(date),
    controls: { checkEachStep: true, guard: true },
    pauseMs: [500, 2_000],
  };
}
