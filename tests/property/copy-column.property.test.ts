/**
 * The binary COPY reader (src/server/store/copy-column.ts) gives back every row of a one-column
 * stream, in order, whatever the chunks it arrives in: split anywhere (inside the header, a
 * length, a row), with a header extension, NULLs skipped. A stream that is not one is refused.
 * The reader against a real PostgreSQL is tests/integration/report-stream.test.ts.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CopyColumnReader, sqlLiteral } from '../../src/server/store/copy-column';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');

function int16(n: number) {
  const b = Buffer.alloc(2);
  b.writeInt16BE(n);
  return b;
}
function int32(n: number) {
  const b = Buffer.alloc(4);
  b.writeInt32BE(n);
  return b;
}

/** A binary COPY of one column: `null` is a NULL. */
function encode(rows: readonly (string | null)[], extension: Buffer): Buffer {
  const parts = [SIGNATURE, int32(0), int32(extension.length), extension];
  for (const row of rows) {
    parts.push(int16(1));
    if (row === null) parts.push(int32(-1));
    else {
      const bytes = Buffer.from(row, 'utf8');
      parts.push(int32(bytes.length), bytes);
    }
  }
  parts.push(int16(-1));
  return Buffer.concat(parts);
}

/** `whole` cut at `cuts` (positions, any order, repeats allowed). */
function split(whole: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const cut of [...at, whole.length]) {
    if (cut > from) chunks.push(whole.subarray(from, cut));
    from = cut;
  }
  return chunks;
}

/** Feeds the chunks as the connection does: each one reused once the call returns. */
function read(chunks: readonly Buffer[]): { rows: string[]; complete: boolean } {
  const rows: string[] = [];
  const reader = new CopyColumnReader((bytes, start, end) =>
    rows.push(bytes.toString('utf8', start, end)),
  );
  for (const chunk of chunks) {
    const reused = Buffer.from(chunk);
    reader.push(reused);
    reused.fill(0x78);
  }
  return { rows, complete: reader.complete };
}

describe('binary COPY reader', () => {
  it('gives back every row in order, however the stream is cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.string({ unit: 'grapheme', maxLength: 40 }), { nil: null }), {
          maxLength: 30,
        }),
        fc.uint8Array({ maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        (rows, extension, cuts) => {
          const whole = encode(rows, Buffer.from(extension));
          const { rows: got, complete } = read(split(whole, cuts));
          expect(got).toEqual(rows.filter((r) => r !== null));
          expect(complete).toBe(true);
        },
      ),
    );
  });

  it('reads a stream given one byte at a time', () => {
    const rows = ['{"a":"ñandú"}', '', '{"b":"\\u0000 y \\"comillas\\""}', '😀'];
    const whole = encode(rows, Buffer.alloc(0));
    const bytes = [...whole].map((b) => Buffer.from([b]));
    expect(read(bytes)).toEqual({ rows, complete: true });
  });

  it('is not complete before the end marker', () => {
    const whole = encode(['x', 'y'], Buffer.alloc(0));
    expect(read([whole.subarray(0, whole.length - 2)])).toEqual({
      rows: ['x', 'y'],
      complete: false,
    });
  });

  it('refuses what is not a one-column binary COPY', () => {
    const reader = () => new CopyColumnReader(() => undefined);
    expect(() => reader().push(Buffer.from('id\tname\n1\tAna\n0123456789'))).toThrow(/signature/);
    const twoColumns = Buffer.concat([
      SIGNATURE,
      int32(0),
      int32(0),
      int16(2),
      int32(1),
      Buffer.from('a'),
    ]);
    expect(() => reader().push(twoColumns)).toThrow(/2 columns/);
    const trailing = Buffer.concat([encode(['a'], Buffer.alloc(0)), Buffer.from('zz')]);
    expect(() => reader().push(trailing)).toThrow(/after the end/);
  });

  it('quotes literals by doubling quotes, and refuses NUL', () => {
    expect(sqlLiteral("O'Brien")).toBe("'O''Brien'");
    expect(sqlLiteral('a\\b')).toBe("'a\\b'");
    expect(() => sqlLiteral('a\0b')).toThrow(/NUL/);
  });
});
