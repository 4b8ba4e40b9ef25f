import { LoadSampleRuns } from './load-sample-runs';
import type { LoadSampleRunsAction } from './load-sample-runs';
import styles from './empty-project.module.css';

/** A project without runs: how to point an OpenTelemetry exporter at it, instead of a blank table. */
export function EmptyProject({
  project,
  endpoint,
  loadSampleRuns,
}: {
  project: string;
  endpoint: string;
  loadSampleRuns?: LoadSampleRunsAction;
}) {
  const example = [
    `import { trace } from '@opentelemetry/api';`,
    `import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';`,
    `import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';`,
    ``,
    `const exporter = new OTLPTraceExporter({`,
    `  url: '${endpoint}',`,
    '  headers: { Authorization: `Bearer ${process.env.LOOPSCOPE_API_KEY}` },',
    `});`,
    `trace.setGlobalTracerProvider(`,
    `  new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter })] }),`,
    `);`,
  ].join('\n');
  return (
    <section className={styles.empty} aria-labelledby="empty-title">
      <h2 id="empty-title">No runs in project “{project}” yet</h2>
      <p>
        Loopscope reads ordinary OpenTelemetry spans. Point any OTLP/HTTP exporter (protobuf or
        JSON) at this server and every agent run shows up here, grouped by why it stopped.
      </p>
      <dl className={styles.settings}>
        <dt>Endpoint</dt>
        <dd>
          <code>{endpoint}</code>
        </dd>
        <dt>Header</dt>
        <dd>
          <code>Authorization: Bearer &lt;key&gt;</code>
        </dd>
        <dt>Key</dt>
        <dd>
          Keys are stored hashed, so no page can show one again. The first start of the server
          printed a key for project <code>default</code>; for this or any project run{' '}
          <code>npx loopscope keys create --project {project}</code> (the key is its last line).
        </dd>
        <dt>Any SDK</dt>
        <dd>
          <code>OTEL_EXPORTER_OTLP_TRACES_ENDPOINT={endpoint}</code>
          <br />
          <code>
            OTEL_EXPORTER_OTLP_TRACES_HEADERS=&quot;Authorization=Bearer &lt;key&gt;&quot;
          </code>
        </dd>
      </dl>
      <h3>With the JavaScript SDK</h3>
      <pre className={styles.code}>{example}</pre>
      <p className="muted">
        Mark each loop iteration with <code>loop.step</code> and <code>loop.action</code>, and end
        the run&apos;s root span with <code>loop.exit.reason</code> so every run says why it
        stopped.
      </p>
      <LoadSampleRuns action={loadSampleRuns} project={project} />
    </section>
  );
}
