import { describe, expect, it } from 'vitest';
import { readServerConfig } from './config';

describe('readServerConfig: OTLP/gRPC and retention', () => {
  it('listens for OTLP/gRPC on 4317 unless told another port, or 0 or off for none', () => {
    expect(readServerConfig({}).grpcPort).toBe(4317);
    expect(readServerConfig({ LOOPSCOPE_GRPC_PORT: '4400' }).grpcPort).toBe(4400);
    expect(readServerConfig({ LOOPSCOPE_GRPC_PORT: '0' }).grpcPort).toBeNull();
    expect(readServerConfig({ LOOPSCOPE_GRPC_PORT: 'off' }).grpcPort).toBeNull();
    // Only a port set by hand must be had: a taken default is skipped (server/start.ts).
    expect(readServerConfig({}).grpcPortChosen).toBe(false);
    expect(readServerConfig({ LOOPSCOPE_GRPC_PORT: '' }).grpcPortChosen).toBe(false);
    expect(readServerConfig({ LOOPSCOPE_GRPC_PORT: '4317' }).grpcPortChosen).toBe(true);
    expect(readServerConfig({}).grpc).toEqual({ connectionsPerAddress: 32, callsPerAddress: 128 });
    for (const bad of ['on', '70000', '-1', '43.5']) {
      expect(() => readServerConfig({ LOOPSCOPE_GRPC_PORT: bad })).toThrow(
        /Invalid setting LOOPSCOPE_GRPC_PORT/,
      );
    }
  });

  it('sweeps retention every 15 minutes unless told otherwise, never at 0', () => {
    expect(readServerConfig({}).retentionSweepMs).toBe(15 * 60_000);
    expect(readServerConfig({ LOOPSCOPE_RETENTION_SWEEP_MINUTES: '1' }).retentionSweepMs).toBe(
      60_000,
    );
    expect(
      readServerConfig({ LOOPSCOPE_RETENTION_SWEEP_MINUTES: '0' }).retentionSweepMs,
    ).toBeNull();
    expect(() => readServerConfig({ LOOPSCOPE_RETENTION_SWEEP_MINUTES: 'hourly' })).toThrow(
      /LOOPSCOPE_RETENTION_SWEEP_MINUTES/,
    );
  });
});

describe('readServerConfig: a Postgres formation', () => {
  it('holds requests on disk only on Postgres, 1 GiB unless told otherwise, none at 0', () => {
    expect(readServerConfig({}).holdBytes).toBe(0);
    expect(readServerConfig({ DATABASE_URL: 'postgres://db/x' }).holdBytes).toBe(1024 ** 3);
    expect(
      readServerConfig({ DATABASE_URL: 'postgres://db/x', LOOPSCOPE_HOLD_MB: '0' }).holdBytes,
    ).toBe(0);
    expect(() =>
      readServerConfig({ DATABASE_URL: 'postgres://db/x', LOOPSCOPE_HOLD_MB: '-1' }),
    ).toThrow(/LOOPSCOPE_HOLD_MB/);
  });

  it('takes a standby for the dashboard only beside the database it copies', () => {
    expect(
      readServerConfig({ DATABASE_URL: 'postgres://a/x', DATABASE_READ_URL: 'postgres://b/x' })
        .readDatabaseUrl,
    ).toBe('postgres://b/x');
    expect(() => readServerConfig({ DATABASE_READ_URL: 'postgres://b/x' })).toThrow(
      /DATABASE_READ_URL: .*set DATABASE_URL too/,
    );
  });
});
