import { strToU8, unzipSync, zipSync } from 'fflate';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, PDFStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import {
  AUTHOR_SENTINEL,
  BODY_TEXT,
  containsAuthor,
  docxWithAuthor,
  hwpxWithAuthor,
  pdfWithAuthor,
} from '../../test/documents.ts';
import { hasStrippableMetadata, stripMetadata } from './strip-metadata.ts';
import { readZip } from './zip-archive.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const HWPX = 'application/hwp+zip';
const PDF = 'application/pdf';

function unzippedText(archive: Buffer): Record<string, string> {
  return Object.fromEntries(
    Object.entries(unzipSync(archive)).map(([name, content]) => [name, Buffer.from(content).toString()]),
  );
}

/** The compressed bytes of one entry, as they sit in the archive. */
function rawEntry(archive: Buffer, name: string): Buffer {
  const entry = readZip(archive).entries.find((candidate) => candidate.name === name)!;
  return archive.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
}

describe.each(['at-once', 'streamed'] as const)('stripMetadata on a %s-written ZIP package', (layout) => {
  it('blanks the author, last editor, manager, company and custom properties of a docx', async () => {
    const input = docxWithAuthor(AUTHOR_SENTINEL, layout);
    expect(containsAuthor(input)).toBe(true);
    const output = await stripMetadata(DOCX, input);
    expect(containsAuthor(output)).toBe(false);
    const before = unzippedText(input);
    const after = unzippedText(output);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    for (const content of Object.values(after)) expect(content).not.toContain(AUTHOR_SENTINEL);
    expect(after['docProps/core.xml']).toContain('<dc:creator></dc:creator>');
    expect(after['docProps/core.xml']).toContain('<cp:lastModifiedBy></cp:lastModifiedBy>');
    expect(after['docProps/core.xml']).toContain('<dc:title>회의록</dc:title>');
    expect(after['docProps/core.xml']).toContain('2026-10-01T09:00:00Z');
    expect(after['docProps/app.xml']).toContain('<Company></Company>');
    expect(after['docProps/app.xml']).toContain('<Application>Microsoft Office Word</Application>');
    expect(after['docProps/custom.xml']).toMatch(/<Properties [^>]*\/>$/);
    // The evidence itself is untouched, down to its compressed bytes.
    expect(after['word/document.xml']).toContain(BODY_TEXT);
    for (const name of ['[Content_Types].xml', '_rels/.rels', 'word/document.xml']) {
      expect(after[name], name).toBe(before[name]);
      expect(rawEntry(output, name).equals(rawEntry(input, name)), name).toBe(true);
    }
  });

  it('blanks creator and lastsaveby of an HWPX package and keeps its stored mimetype first', async () => {
    const input = hwpxWithAuthor(AUTHOR_SENTINEL, layout);
    expect(containsAuthor(input)).toBe(true);
    const output = await stripMetadata(HWPX, input);
    expect(containsAuthor(output)).toBe(false);
    // 한글 and the upload sniffer both expect a first, uncompressed entry named mimetype.
    expect(output.readUInt32LE(0)).toBe(0x04034b50);
    expect(output.readUInt16LE(8)).toBe(0);
    expect(output.toString('latin1', 30, 38)).toBe('mimetype');
    expect(output.subarray(0, 256).includes('application/hwp+zip')).toBe(true);
    const before = unzippedText(input);
    const after = unzippedText(output);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    const packageFile = after['Contents/content.hpf']!;
    expect(packageFile).not.toContain(AUTHOR_SENTINEL);
    expect(packageFile).toContain('<opf:meta name="creator" content="text"></opf:meta>');
    expect(packageFile).toContain('<opf:meta name="lastsaveby" content="text"></opf:meta>');
    expect(packageFile).toContain('<opf:title>진술서</opf:title>');
    expect(packageFile).toContain('<opf:itemref idref="section0" linear="yes"/>');
    for (const name of ['mimetype', 'version.xml', 'Contents/section0.xml', 'Preview/PrvText.txt']) {
      expect(after[name], name).toBe(before[name]);
    }
    expect(after['Contents/section0.xml']).toContain(BODY_TEXT);
  });

  it('returns a package with nothing left to strip as the same buffer', async () => {
    const stripped = await stripMetadata(DOCX, docxWithAuthor(AUTHOR_SENTINEL, layout));
    expect(await stripMetadata(DOCX, stripped)).toBe(stripped);
  });
});

describe('stripMetadata on documents it cannot or must not rewrite', () => {
  it('keeps a damaged package as uploaded rather than lose the evidence', async () => {
    const input = docxWithAuthor();
    for (const damaged of [
      input.subarray(0, input.length - 30),
      input.subarray(0, Math.floor(input.length / 2)),
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 0x41)]),
    ]) {
      expect(await stripMetadata(DOCX, damaged)).toBe(damaged);
    }
  });

  it('keeps a package whose core properties fail their CRC check as uploaded', async () => {
    const input = Buffer.from(docxWithAuthor());
    // core.xml is stored, so its bytes can be changed in place: the CRC no longer matches.
    const at = input.indexOf('<cp:revision>3');
    input.write('4', at + '<cp:revision>'.length, 'latin1');
    expect(await stripMetadata(DOCX, input)).toBe(input);
  });

  it('keeps a digitally signed package as uploaded', async () => {
    const files = unzipSync(docxWithAuthor());
    files['_xmlsignatures/sig1.xml'] = strToU8('<Signature/>');
    const input = Buffer.from(zipSync(files));
    expect(await stripMetadata(DOCX, input)).toBe(input);
  });

  it('keeps a damaged PDF, an encrypted PDF and a signed PDF as uploaded', async () => {
    const input = await pdfWithAuthor();
    const encrypted = await PDFDocument.load(input, { updateMetadata: false });
    encrypted.context.trailerInfo.Encrypt = encrypted.context.obj({ Filter: 'Standard', V: 1, R: 2, P: -4 });
    const signed = await PDFDocument.load(input, { updateMetadata: false });
    signed.catalog.set(PDFName.of('AcroForm'), signed.context.obj({ Fields: [], SigFlags: 3 }));
    const protectedDocuments = [
      Buffer.from(await encrypted.save({ useObjectStreams: false })),
      Buffer.from(await signed.save({ useObjectStreams: false })),
    ];
    for (const document of protectedDocuments) expect(containsAuthor(document)).toBe(true);
    for (const kept of [
      input.subarray(0, Math.floor(input.length / 2)),
      input.subarray(0, input.length - 300),
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x07)]),
      ...protectedDocuments,
    ]) {
      expect(await stripMetadata(PDF, kept)).toBe(kept);
    }
  });
});

function pageContents(document: PDFDocument): Buffer {
  const contents = document.getPage(0).node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray() : [contents];
  return Buffer.concat(
    streams.map((stream) => {
      const raw = document.context.lookup(stream);
      if (!(raw instanceof PDFRawStream)) throw new Error('page contents are not a stream');
      return Buffer.from(raw.getContents());
    }),
  );
}

describe('stripMetadata on a PDF', () => {
  it.each([{ useObjectStreams: false }, { useObjectStreams: true }])(
    'removes Author, Creator, Producer and the XMP packet (object streams: $useObjectStreams)',
    async (options) => {
      const input = await pdfWithAuthor(AUTHOR_SENTINEL, options);
      expect(containsAuthor(input)).toBe(true);
      expect((await PDFDocument.load(input)).getAuthor()).toBe(AUTHOR_SENTINEL);
      const output = await stripMetadata(PDF, input);
      expect(containsAuthor(output)).toBe(false);
      expect(output.includes('dc:creator')).toBe(false);

      const before = await PDFDocument.load(input, { updateMetadata: false });
      const after = await PDFDocument.load(output, { updateMetadata: false, throwOnInvalidObject: true });
      expect(after.getAuthor()).toBeUndefined();
      expect(after.getCreator()).toBeUndefined();
      expect(after.getProducer()).toBeUndefined();
      expect(after.catalog.has(PDFName.of('Metadata'))).toBe(false);
      const xmpStreams = after.context
        .enumerateIndirectObjects()
        .filter(
          ([, object]) =>
            object instanceof PDFStream && object.dict.get(PDFName.of('Type')) === PDFName.of('Metadata'),
        );
      expect(xmpStreams).toEqual([]);
      expect(after.getTitle()).toBe('회의록');
      expect(after.getPageCount()).toBe(1);
      expect(pageContents(after).equals(pageContents(before))).toBe(true);
      expect(after.catalog.lookup(PDFName.of('Pages'))).toBeInstanceOf(PDFDict);
    },
  );

  it('removes the packet the catalog’s /Metadata points to even when it does not say it is XMP', async () => {
    const document = await PDFDocument.load(await pdfWithAuthor(), { updateMetadata: false });
    const packet = document.context.lookup(document.catalog.get(PDFName.of('Metadata')), PDFStream);
    packet.dict.delete(PDFName.of('Type'));
    const input = Buffer.from(await document.save({ useObjectStreams: false }));
    expect(input.includes('dc:creator')).toBe(true);
    const output = await stripMetadata(PDF, input);
    expect(output.includes('dc:creator')).toBe(false);
    expect(containsAuthor(output)).toBe(false);
  });

  it('returns a PDF with nothing left to strip as the same buffer', async () => {
    const stripped = await stripMetadata(PDF, await pdfWithAuthor());
    expect(await stripMetadata(PDF, stripped)).toBe(stripped);
  });
});

describe('hasStrippableMetadata', () => {
  it('selects images, PDF, OOXML and HWPX, and leaves recordings and text unread', () => {
    for (const type of ['image/jpeg', 'image/png', 'image/webp', PDF, DOCX, HWPX]) {
      expect(hasStrippableMetadata(type), type).toBe(true);
    }
    for (const type of [
      'image/gif',
      'audio/mp4',
      'video/mp4',
      'text/plain; charset=utf-8',
      'application/x-hwp',
    ]) {
      expect(hasStrippableMetadata(type), type).toBe(false);
    }
  });
});
