import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createSessionToken,
  revokeSessionToken,
  verifySessionToken,
} from '../lib/door/dashboard-session';
import { revokedSessionsFile } from './revoked-sessions-file';

describe('revoked sessions in the data folder', () => {
  it('stay revoked after a restart, and only the owner may read them', () => {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'loopscope-sessions-')), 'revoked');
    const revoked = revokedSessionsFile(file);
    const token = createSessionToken('pw-one-123456');
    const other = createSessionToken('pw-one-123456');
    expect(verifySessionToken(token, 'pw-one-123456', Date.now(), revoked)).toBe(true);
    revokeSessionToken(token, 'pw-one-123456', revoked);
    expect(verifySessionToken(token, 'pw-one-123456', Date.now(), revoked)).toBe(false);
    expect(verifySessionToken(other, 'pw-one-123456', Date.now(), revoked)).toBe(true);
    // A new process reads the same folder: the revocation holds.
    const afterRestart = revokedSessionsFile(file);
    expect(verifySessionToken(token, 'pw-one-123456', Date.now(), afterRestart)).toBe(false);
    expect(verifySessionToken(other, 'pw-one-123456', Date.now(), afterRestart)).toBe(true);
    expect(statSync(file).mode & 0o077).toBe(0);
  });
});
