// Logged-out sessions kept in the data folder, one `id expiry` line each, so a restart does not
// forget them. Rewritten at start without the expired ones.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { SessionRevocations } from '../lib/door/dashboard-session';

export function revokedSessionsFile(file: string): SessionRevocations {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    // none revoked yet
  }
  const earlier = text
    .split('\n')
    .map((line) => line.split(' '))
    .filter((parts): parts is [string, string] => parts.length === 2 && parts[0] !== '')
    .map(([id, expiry]): [string, number] => [id, Number(expiry)]);
  const revocations = new SessionRevocations(earlier, (id, expiresAt) =>
    appendFileSync(file, `${id} ${expiresAt}\n`, { mode: 0o600 }),
  );
  const live = revocations.entries().map(([id, expiry]) => `${id} ${expiry}\n`);
  writeFileSync(file, live.join(''), { mode: 0o600 });
  return revocations;
}
