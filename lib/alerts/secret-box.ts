// Webhook secrets at rest: AES-256-GCM under the server's alert key (LOOPSCOPE_ALERT_KEY, else a
// key file in the data folder), so a copy of the database alone does not give them away. The
// sender must read a secret back to sign with it, so it cannot be hashed.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const VERSION = 'v1';

export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return [VERSION, iv, cipher.getAuthTag(), sealed].map(encode).join('.');
}

/** The secret, or null when it was sealed under another key (or altered). */
export function openSecret(key: Buffer, sealed: string): string | null {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || !iv || !tag || data === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    const bytes = Buffer.concat([
      decipher.update(Buffer.from(data, 'base64url')),
      decipher.final(),
    ]);
    return bytes.toString('utf8');
  } catch {
    return null;
  }
}

/** A 32-byte key from its text form (64 hex digits or 43 base64url characters). */
export function parseAlertKey(text: string): Buffer | null {
  const key = /^[0-9a-f]{64}$/i.test(text)
    ? Buffer.from(text, 'hex')
    : Buffer.from(text, 'base64url');
  return key.length === 32 ? key : null;
}

export function newAlertKey(): Buffer {
  return randomBytes(32);
}

function encode(part: string | Buffer): string {
  return typeof part === 'string' ? part : part.toString('base64url');
}
