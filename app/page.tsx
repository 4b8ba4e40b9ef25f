export const dynamic = 'force-dynamic';

export default function HomePage() {
  return (
    <main style={{ padding: 24 }}>
      <h1>Loopscope</h1>
      <p>Send OpenTelemetry spans to /v1/traces.</p>
    </main>
  );
}
