import { describe, expect, it } from 'vitest';
import { loopSettings } from './settings';

describe('per-agent settings', () => {
  it('pollingTools and ignoreArgs: the project default, overridden whole per agent', () => {
    const settings = loopSettings({
      pollingTools: ['job_status'],
      ignoreArgs: ['request_id'],
      agents: { deployer: { pollingTools: ['health_check'] } },
    });
    expect(settings.deriveOptionsFor('deployer')).toMatchObject({
      pollingTools: ['health_check'],
      ignoreArgs: ['request_id'],
    });
    expect(settings.deriveOptionsFor('other')).toMatchObject({
      pollingTools: ['job_status'],
      ignoreArgs: ['request_id'],
    });
    expect(loopSettings().deriveOptionsFor(null)).toMatchObject({
      pollingTools: [],
      ignoreArgs: [],
    });
  });

  it('a field that is not a list of names fails at start', () => {
    expect(() => loopSettings({ pollingTools: 'job_status' as never })).toThrow();
    expect(() => loopSettings({ agents: { a: { ignoreArgs: [''] } } })).toThrow();
  });
});
