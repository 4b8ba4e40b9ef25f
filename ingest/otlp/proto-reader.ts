import { AppError } from '../../lib/app-error';

export const WIRE_VARINT = 0;
export const WIRE_I64 = 1;
export const WIRE_LEN = 2;

const TWO_32 = 4294967296;
// Direct-mapped and shared across requests: keys recur from one export to the next, and a fixed table
// cannot grow however many distinct keys arrive.
const KEY_CACHE_SIZE = 4096;
const keyCache: string[] = new Array<string>(KEY_CACHE_SIZE).fill('');

/**
 * A cursor over one protobuf buffer. Messages are decoded in place (start/end offsets, no sub-buffers);
 * every read is bounded by the end of the enclosing message, and every failure is an AppError that
 * names the field, the message and the byte offset.
 */
export class ProtoReader {
  pos = 0;
  /** The last 64-bit varint or fixed64, as unsigned 32-bit halves. */
  lo = 0;
  hi = 0;
  /** Where the field being read starts, and what it is, for error messages. */
  fieldAt = 0;
  field = 0;
  message = '';
  readonly buf: Uint8Array;
  private readonly view: DataView;
  /** The same bytes as a Buffer (no copy), for its native UTF-8, hex and base64 decoding. */
  private readonly buffer: Buffer;

  constructor(buf: Uint8Array) {
    this.buf = buf;
    this.view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    this.buffer = Buffer.from(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  fail(detail: string): never {
    const where =
      this.field === 0
        ? `${this.message} at byte ${this.fieldAt}`
        : `field ${this.field} of ${this.message} at byte ${this.fieldAt}`;
    throw new AppError('malformed_body', `protobuf: ${where}: ${detail}`);
  }

  /** Reads a field key; returns the tag (field number << 3 | wire type). */
  tag(end: number, message: string): number {
    this.message = message;
    this.fieldAt = this.pos;
    this.field = 0;
    const tag = this.varint(end);
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (field === 0) this.fail('field number 0 is invalid');
    if (tag > 0xffffffff) this.fail('field number is out of range');
    this.field = field;
    if (wire === 3 || wire === 4) this.fail(`wire type ${wire} (group) is not supported`);
    if (wire > 5) this.fail(`invalid wire type ${wire}`);
    return tag;
  }

  /** A varint as a number (exact below 2^53): lengths, enums, tags. */
  varint(end: number): number {
    const pos = this.pos;
    if (pos < end) {
      const b = this.buf[pos] as number;
      if (b < 0x80) {
        this.pos = pos + 1;
        return b;
      }
    }
    this.varint64(end);
    return this.hi * TWO_32 + this.lo;
  }

  /** A varint into lo/hi (two's complement for negative int64). */
  varint64(end: number): void {
    const buf = this.buf;
    let pos = this.pos;
    let lo = 0;
    let hi = 0;
    for (let i = 0; i < 10; i++) {
      if (pos >= end) this.fail('truncated varint');
      const b = buf[pos++] as number;
      if (i < 4) lo |= (b & 0x7f) << (7 * i);
      else if (i === 4) {
        lo |= (b & 0x0f) << 28;
        hi = (b & 0x7f) >> 4;
      } else hi |= (b & 0x7f) << (7 * i - 32);
      if (b < 0x80) {
        this.pos = pos;
        this.lo = lo >>> 0;
        this.hi = hi >>> 0;
        return;
      }
    }
    this.fail('varint longer than 10 bytes');
  }

  /** Reads a length prefix and returns where the payload ends; `pos` is left at its start. */
  lengthEnd(end: number): number {
    const length = this.varint(end);
    if (length > end - this.pos) this.fail(`length ${length} runs past the end of the message`);
    return this.pos + length;
  }

  fixed64(end: number): void {
    const pos = this.pos;
    if (end - pos < 8) this.fail('8-byte value runs past the end of the message');
    this.lo = this.view.getUint32(pos, true);
    this.hi = this.view.getUint32(pos + 4, true);
    this.pos = pos + 8;
  }

  double(end: number): number {
    const pos = this.pos;
    if (end - pos < 8) this.fail('8-byte value runs past the end of the message');
    this.pos = pos + 8;
    return this.view.getFloat64(pos, true);
  }

  /** Skips the value of a field this decoder does not read. */
  skip(tag: number, end: number): void {
    switch (tag & 7) {
      case WIRE_VARINT:
        this.varint64(end);
        return;
      case WIRE_I64:
        if (end - this.pos < 8) this.fail('8-byte value runs past the end of the message');
        this.pos += 8;
        return;
      case WIRE_LEN:
        this.pos = this.lengthEnd(end);
        return;
      default:
        if (end - this.pos < 4) this.fail('4-byte value runs past the end of the message');
        this.pos += 4;
    }
  }

  /** UTF-8; invalid sequences become U+FFFD exactly as with a non-fatal TextDecoder (tested). */
  string(start: number, end: number): string {
    return this.buffer.toString('utf8', start, end);
  }

  /**
   * A string that recurs across spans (attribute keys): returned from a small cache when the bytes match,
   * which saves decoding it again and lets V8 reuse its hash in the attribute objects.
   */
  key(start: number, end: number): string {
    const length = end - start;
    if (length > 64) return this.string(start, end);
    const buf = this.buf;
    let hash = length;
    for (let i = start; i < end; i++) {
      const b = buf[i] as number;
      if (b >= 0x80) return this.string(start, end);
      hash = Math.imul(hash ^ b, 0x01000193);
    }
    const slot = (hash ^ (hash >>> 15)) & (KEY_CACHE_SIZE - 1);
    const cached = keyCache[slot] as string;
    if (cached.length === length) {
      let i = 0;
      while (i < length && cached.charCodeAt(i) === buf[start + i]) i++;
      if (i === length) return cached;
    }
    const key = this.buffer.toString('latin1', start, end);
    keyCache[slot] = key;
    return key;
  }

  hex(start: number, end: number): string {
    return this.buffer.toString('hex', start, end);
  }

  base64(start: number, end: number): string {
    return this.buffer.toString('base64', start, end);
  }
}

/** Unix nanoseconds (fixed64 halves) to fractional milliseconds; only the sub-millisecond part is rounded. */
export function nanosToMs(lo: number, hi: number): number {
  // hi * 2^32 = hi * 4294 * 10^6 + hi * 967296, so the whole milliseconds stay exact integers.
  const rest = hi * 967296 + lo;
  return hi * 4294 + Math.floor(rest / 1e6) + (rest % 1e6) / 1e6;
}

/** A two's complement int64 (unsigned halves): a number when safe, else its decimal string. */
export function int64Value(lo: number, hi: number): number | string {
  if (hi < 0x200000) return hi * TWO_32 + lo;
  if (hi >= 0xffe00000) {
    const magnitude = (0xffffffff - hi) * TWO_32 + (TWO_32 - lo);
    if (magnitude <= Number.MAX_SAFE_INTEGER) return -magnitude;
  }
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo)).toString();
}
