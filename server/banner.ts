/** Shown once, on the first start that created a key: the key is stored hashed afterwards. */
export function printFirstKey(origin: string, key: string, grpcAddress: string | null): void {
  const lines = [
    '',
    'Loopscope created project "default" and its first API key. It is shown only this once:',
    '',
    `  ${key}`,
    '',
    'Point any OpenTelemetry exporter at Loopscope (paste these into the shell that runs it):',
    '',
    `  export LOOPSCOPE_API_KEY=${key}`,
    `  export OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=${origin}/v1/traces`,
    `  export OTEL_EXPORTER_OTLP_TRACES_HEADERS="Authorization=Bearer ${key}"`,
    '',
    ...(grpcAddress
      ? [
          `OTLP over gRPC (the Collector's default) listens on ${grpcAddress}: the same key, in the`,
          '`authorization` metadata; set OTEL_EXPORTER_OTLP_TRACES_ENDPOINT to that address instead.',
          '',
        ]
      : []),
    'More keys: npx loopscope keys create --project NAME',
    '',
  ];
  console.log(lines.join('\n'));
}
