import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KEY_TEXT_BYTES, keyText, keyTextOrNull } from './key-text';

const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

describe('keyText', () => {
  it('keeps a text of up to KEY_TEXT_BYTES of UTF-8 as it is', () => {
    for (const text of [
      '',
      'run-7f3c',
      'a'.repeat(KEY_TEXT_BYTES),
      '日'.repeat(170),
      '😀'.repeat(128),
    ]) {
      expect(keyText(text)).toBe(text);
    }
    expect(keyTextOrNull(null)).toBeNull();
  });

  it('cuts a longer one to its first bytes, a marker and 16 hex digits of a hash of the whole', () => {
    const text = 'a'.repeat(KEY_TEXT_BYTES + 1);
    const kept = keyText(text);
    expect(kept).toMatch(/^a+…#[0-9a-f]{16}$/);
    expect(bytes(kept)).toBe(KEY_TEXT_BYTES);
    // FNV-1a 64 of the whole, fixed: the ids stored by one version are found by the next.
    expect(keyText('x'.repeat(1000))).toBe(`${'x'.repeat(492)}…#e1add1d93134d2c5`);
  });

  it('never splits a character, never passes KEY_TEXT_BYTES, and gives the same text again', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', minLength: 100, maxLength: 900 }), (text) => {
        const kept = keyText(text);
        expect(bytes(kept)).toBeLessThanOrEqual(KEY_TEXT_BYTES);
        // A cut inside a character would decode as U+FFFD.
        if (!text.includes('\uFFFD')) expect(kept).not.toContain('\uFFFD');
        expect(keyText(kept)).toBe(kept);
        expect(keyText(text)).toBe(kept);
        if (bytes(text) > KEY_TEXT_BYTES) expect(text.startsWith(kept.split('…#')[0]!)).toBe(true);
      }),
    );
  });

  it('keeps apart two texts that differ only past the cut', () => {
    const base = '€'.repeat(400);
    const seen = new Set(['a', 'b', 'c', '€'].map((end) => keyText(`${base}${end}`)));
    expect(seen.size).toBe(4);
  });
});
