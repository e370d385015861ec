import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { ascii85Decode, asciiHexDecode, lzwDecode, runLengthDecode } from '../src/pdf/decoders.ts';
import { prescanPdf } from '../src/pdf/prescan.ts';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/pdf/${name}`, import.meta.url));
const LIMITS = { maxInflatedBytes: 8 * 1024 * 1024, deadlineMs: 5000 };

async function decodeAll(decoded: AsyncIterable<Uint8Array>): Promise<string> {
  const parts: Uint8Array[] = [];
  for await (const chunk of decoded) parts.push(chunk);
  return Buffer.concat(parts).toString('latin1');
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  // One byte at a time, so state carried across chunk boundaries is exercised too.
  for (const byte of bytes) yield Uint8Array.of(byte);
}

/** A one-page PDF whose content stream has the given dictionary entries and raw bytes. */
function pdfWithContent(entries: string, data: Uint8Array): Buffer {
  const objects = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from('<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R >>'),
    Buffer.concat([
      Buffer.from(`<< ${entries} /Length ${data.length} >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]),
    Buffer.from('[/FlateDecode]'),
  ];
  const parts = [Buffer.from('%PDF-1.7\n')];
  for (const [i, body] of objects.entries())
    parts.push(Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n'));
  parts.push(Buffer.from('trailer\n<< /Root 1 0 R >>\n%%EOF\n'));
  return Buffer.concat(parts);
}

let scratch: string;
// 64 MiB of spaces deflates to ~64 KB: 8x over the test budget.
let bomb: Buffer;

before(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'pdf-prescan-'));
  bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024, 0x20), { level: 9 });
});

after(async () => {
  await rm(scratch, { recursive: true, force: true });
});

async function scan(name: string, bytes: Buffer, limits = LIMITS) {
  const path = join(scratch, name);
  await writeFile(path, bytes);
  return prescanPdf(path, limits);
}

describe('pre-scan decoders', () => {
  test('LZW: the example of the PDF specification (7.4.4.2)', async () => {
    const encoded = Uint8Array.from([0x80, 0x0b, 0x60, 0x50, 0x22, 0x0c, 0x0c, 0x85, 0x01]);
    assert.equal(await decodeAll(lzwDecode(once(encoded), 1)), '-----A---B');
  });

  test('RunLength: literal and repeated runs, then end of data', async () => {
    const encoded = Uint8Array.from([2, 0x61, 0x62, 0x63, 254, 0x78, 128, 0x7a]);
    assert.equal(await decodeAll(runLengthDecode(once(encoded))), 'abcxxx');
  });

  test('ASCIIHex: whitespace ignored, odd final digit padded', async () => {
    assert.equal(await decodeAll(asciiHexDecode(once(Buffer.from('48 65 6c\n6C 6f 4>')))), 'Hello@');
  });

  test('ASCII85: groups, the z shorthand and a partial final group', async () => {
    const encoded = Buffer.from('87cURD_*"u<ZlU)Ebo80zGQ~>');
    assert.equal(await decodeAll(ascii85Decode(once(encoded))), 'Hello, CV world!\0\0\0\0x');
  });
});

describe('pre-scan', () => {
  test('real files stay far below the budget', async () => {
    for (const name of [
      'cv-2-pages.pdf',
      'portfolio-12-pages.pdf',
      'pages-10000.pdf',
      'scan-image-only.pdf',
    ]) {
      const result = await prescanPdf(fixture(name), LIMITS);
      assert.ok(result.ok, name);
      assert.ok(result.inflatedBytes < 4 * 1024 * 1024, `${name}: ${result.inflatedBytes}`);
    }
  });

  test('a Flate bomb is stopped at the budget, not inflated whole', async () => {
    const result = await scan('flate.pdf', pdfWithContent('/Filter /FlateDecode', bomb));
    assert.equal(result.ok, false);
    assert.ok(!result.ok && result.cause === 'inflate_cap');
    assert.ok(result.inflatedBytes < LIMITS.maxInflatedBytes + 2 * 1024 * 1024, String(result.inflatedBytes));
  });

  test('filter names hidden with #xx escapes are decoded first', async () => {
    const result = await scan('escaped.pdf', pdfWithContent('/Filter /Fl#61te#44ecode', bomb));
    assert.ok(!result.ok && result.cause === 'inflate_cap');
  });

  test('a bomb behind ASCIIHexDecode in a filter chain', async () => {
    const hex = Buffer.from(`${bomb.toString('hex')}>`);
    const result = await scan('chain.pdf', pdfWithContent('/Filter [/ASCIIHexDecode /FlateDecode]', hex));
    assert.ok(!result.ok && result.cause === 'inflate_cap');
  });

  test('the budget also counts the inner stages of a chain', async () => {
    // pdf.js keeps every stage's output, so an inner stage that inflates to 17 MB of zlib data
    // (3.4 million empty stored blocks) which then inflates to nothing still costs 17 MB.
    const emptyBlock = Buffer.from([0x00, 0x00, 0x00, 0xff, 0xff]);
    const hollow = Buffer.concat([
      Buffer.from([0x78, 0x01]),
      Buffer.alloc(emptyBlock.length * 3_400_000, emptyBlock),
      Buffer.from([0x01, 0x00, 0x00, 0xff, 0xff, 0x00, 0x00, 0x00, 0x01]),
    ]);
    const data = deflateSync(hollow, { level: 9 });
    const result = await scan('hollow.pdf', pdfWithContent('/Filter [/FlateDecode /FlateDecode]', data));
    assert.ok(!result.ok && result.cause === 'inflate_cap', JSON.stringify(result));
  });

  test('an indirect /Filter is judged by the zlib header pdf.js requires', async () => {
    const result = await scan('indirect.pdf', pdfWithContent('/Filter 5 0 R', bomb));
    assert.ok(!result.ok && result.cause === 'inflate_cap');
  });

  test('image streams are not inflated (pdf.js does not decode them for text)', async () => {
    const result = await scan(
      'image.pdf',
      pdfWithContent('/Subtype /Image /Width 4096 /Height 4096 /Filter /FlateDecode', bomb),
    );
    assert.ok(result.ok);
    assert.equal(result.inflatedBytes, 0);
  });

  test('the scan has its own deadline', async () => {
    const result = await scan('slow.pdf', pdfWithContent('/Filter /FlateDecode', bomb), {
      maxInflatedBytes: Number.MAX_SAFE_INTEGER,
      deadlineMs: 1,
    });
    assert.ok(!result.ok && result.cause === 'deadline');
  });
});
