import fc from 'fast-check';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { METADATA_HANDLING, stripMetadata } from './strip-metadata.ts';
import { readZip, readZipEntry, replaceZipEntries } from './zip-archive.ts';

/**
 * Property tests of every stripper and of the ZIP reader, with fast-check: whatever the bytes, nothing is
 * thrown past `stripMetadata` (a file it cannot follow is `unremovable`), the output is at most linear in
 * the input, and a sentinel placed in a metadata place does not survive an outcome of `removed`. Small run
 * counts keep it within the normal suite; a failure prints the shrunk input to replay.
 */

const SENTINEL = 'FUZZSNT';
const RUNS = 150;

function hasSentinel(bytes: Buffer): boolean {
  return bytes.includes(SENTINEL) || bytes.includes(Buffer.from(SENTINEL, 'utf16le'));
}

/** The type's magic bytes, then anything: every stripper is reached, not just the sniffing. */
const MAGIC: Record<string, Buffer> = {
  'image/jpeg': Buffer.from([0xff, 0xd8, 0xff]),
  'image/png': Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  'image/gif': Buffer.from('GIF89a', 'latin1'),
  'image/webp': Buffer.from('RIFF\0\0\0\0WEBP', 'latin1'),
  'application/pdf': Buffer.from('%PDF-1.7\n', 'latin1'),
  'audio/mpeg': Buffer.from('ID3', 'latin1'),
  'audio/aac': Buffer.from([0xff, 0xf1]),
  'audio/amr': Buffer.from('#!AMR\n', 'latin1'),
  'audio/wav': Buffer.from('RIFF\0\0\0\0WAVE', 'latin1'),
  'audio/mp4': Buffer.from('\0\0\0\x18ftypM4A ', 'latin1'),
  'video/mp4': Buffer.from('\0\0\0\x18ftypisom', 'latin1'),
  'video/quicktime': Buffer.from('\0\0\0\x14ftypqt  ', 'latin1'),
  'video/3gpp': Buffer.from('\0\0\0\x18ftyp3gp4', 'latin1'),
};

const segment = (marker: number, payload: Buffer) => {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | marker, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
};

/** An 8×8 grey JPEG (as in the metadata fixtures) without its SOI. */
const JPEG_BODY = Buffer.concat([
  segment(0xdb, Buffer.from([0, ...Array(64).fill(1)])),
  segment(0xc0, Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0])),
  segment(0xc4, Buffer.from([0x00, 1, ...Array(15).fill(0), 0x00])),
  segment(0xc4, Buffer.from([0x10, 1, ...Array(15).fill(0), 0x00])),
  segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
  Buffer.from([0x3f, 0xff, 0xd9]),
]);

const payloadWithSentinel = fc
  .tuple(fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 40 }))
  .map(([before, after]) => Buffer.concat([Buffer.from(before), Buffer.from(SENTINEL), Buffer.from(after)]));

/** Each output is at most this many times its input, plus a constant: nothing grows out of proportion. */
function isLinear(input: Buffer, output: Buffer): boolean {
  return output.length <= 2 * input.length + 4096;
}

describe('strippers under fuzzing', () => {
  it.each(Object.keys(MAGIC))('never throw past stripMetadata, and stay linear, for %s', async (type) => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 600 }), async (tail) => {
        const input = Buffer.concat([MAGIC[type]!, Buffer.from(tail)]);
        const { outcome, output } = await stripMetadata(type, input);
        expect(['removed', 'unremovable']).toContain(outcome);
        expect(isLinear(input, output)).toBe(true);
      }),
      { numRuns: type === 'application/pdf' ? 40 : RUNS },
    );
  });

  it('leaves no sentinel of any APPn or COM segment in a JPEG', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.tuple(
            fc.constantFrom(...Array.from({ length: 16 }, (_, n) => 0xe0 + n), 0xfe),
            payloadWithSentinel,
          ),
          { minLength: 1, maxLength: 6 },
        ),
        async (segments) => {
          const input = Buffer.concat([
            Buffer.from([0xff, 0xd8]),
            ...segments.map(([marker, payload]) => segment(marker, payload)),
            JPEG_BODY,
          ]);
          const { outcome, output } = await stripMetadata('image/jpeg', input);
          if (outcome === 'removed') expect(hasSentinel(output)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('leaves no sentinel of an ancillary or private chunk in a PNG', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const kept = new Set([
      'tRNS',
      'gAMA',
      'cHRM',
      'sRGB',
      'sBIT',
      'bKGD',
      'pHYs',
      'hIST',
      'cICP',
      'mDCv',
      'cLLi',
    ]);
    const chunkType = fc
      .tuple(fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'), fc.stringMatching(/^[a-zA-Z]{3}$/))
      .map(([first, rest]) => first + rest)
      .filter((type) => !kept.has(type) && !['acTL', 'fcTL', 'fdAT'].includes(type));
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(chunkType, payloadWithSentinel), { minLength: 1, maxLength: 5 }),
        async (chunks) => {
          const { crc32 } = await import('node:zlib');
          const encoded = chunks.map(([type, data]) => {
            const length = Buffer.alloc(4);
            length.writeUInt32BE(data.length);
            const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
            const crc = Buffer.alloc(4);
            crc.writeUInt32BE(crc32(body) >>> 0);
            return Buffer.concat([length, body, crc]);
          });
          const input = Buffer.concat([png.subarray(0, 33), ...encoded, png.subarray(33)]);
          const { outcome, output } = await stripMetadata('image/png', input);
          if (outcome === 'removed') expect(hasSentinel(output)).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('leaves no sentinel in a package’s properties, external links, fields or nested packages', async () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const place = fc.constantFrom(
      (s: string) => ({
        'docProps/core.xml': `<cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:creator>${s}</dc:creator></cp:coreProperties>`,
      }),
      (s: string) => ({ 'docProps/app.xml': `<Properties xmlns="e"><Company>${s}</Company></Properties>` }),
      (s: string) => ({
        'docProps/custom.xml': `<Properties xmlns="c"><property name="x"><v>${s}</v></property></Properties>`,
      }),
      (s: string) => ({
        'word/_rels/document.xml.rels': `<Relationships xmlns="r"><Relationship Id="r1" Type="t/hyperlink" Target="file:///C:/${s}/" TargetMode="External"/></Relationships>`,
      }),
      (s: string) => ({
        'word/document.xml': `<w:document xmlns:w="w"><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> INCLUDEPICTURE "http://x/${s}" </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:document>`,
      }),
      (s: string) => ({
        'word/comments.xml': `<w:comments xmlns:w="w"><w:comment w:author="${s}" w:initials="${s}"/></w:comments>`,
      }),
      (s: string) => ({ 'word/embeddings/oleObject1.bin': s }),
      (s: string) => ({
        'word/embeddings/Book1.xlsx': zipSync({
          'docProps/core.xml': strToU8(
            `<cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:creator>${s}</dc:creator></cp:coreProperties>`,
          ),
        }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(place, { minLength: 1, maxLength: 4 }),
        fc.stringMatching(/^[a-z0-9 ]{0,12}$/),
        fc.boolean(),
        async (places, noise, stored) => {
          const parts: Record<string, Uint8Array> = {
            '[Content_Types].xml': strToU8('<Types xmlns="t"/>'),
          };
          for (const make of places) {
            for (const [name, content] of Object.entries(make(`${noise}${SENTINEL}${noise}`)))
              parts[name] = typeof content === 'string' ? strToU8(content) : content;
          }
          const input = Buffer.from(zipSync(parts, { level: stored ? 0 : 6 }));
          const { outcome, output } = await stripMetadata(docx, input);
          expect(outcome).toBe('removed');
          expect(isLinear(input, output)).toBe(true);
          const archive = readZip(output);
          for (const entry of archive.entries) expect(hasSentinel(readZipEntry(output, entry))).toBe(false);
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe('the ZIP reader under fuzzing', () => {
  const valid = Buffer.from(
    zipSync({
      'a.xml': strToU8('<a>first</a>'),
      'b.bin': [strToU8('x'.repeat(200)), { level: 0 }],
      'c/d.xml': strToU8('<d/>'),
    }),
  );

  it('throws only Errors on damaged archives, and rewrites a readable one in linear size', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat({ max: valid.length - 1 }), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 8,
        }),
        (flips) => {
          const input = Buffer.from(valid);
          for (const [at, value] of flips) input[at] = value;
          let archive: ReturnType<typeof readZip>;
          try {
            archive = readZip(input);
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
            return;
          }
          const replacements = new Map();
          for (const entry of archive.entries) {
            try {
              replacements.set(entry, readZipEntry(input, entry));
            } catch (error) {
              expect(error).toBeInstanceOf(Error);
            }
          }
          try {
            const output = replaceZipEntries(input, archive, replacements);
            expect(isLinear(input, output)).toBe(true);
          } catch (error) {
            expect(error).toBeInstanceOf(Error);
          }
        },
      ),
      { numRuns: RUNS * 2 },
    );
  });

  it('covers every content type with a stripper', () => {
    for (const type of Object.keys(MAGIC)) expect(typeof METADATA_HANDLING.get(type)).toBe('function');
  });
});
