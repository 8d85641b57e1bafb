import { PDFArray, PDFDocument, PDFName, PDFRawStream } from '@cantoo/pdf-lib';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUTHOR_SENTINEL, containsAuthor, docxWithAuthor, pdfWithAuthor } from '../../test/documents.ts';
import {
  containsSentinel,
  exiftoolJson,
  hasExiftool,
  type MetadataFixture,
  metadataFixtures,
  PERSONAL_TAG,
  SENTINEL,
  unclosedTagsPackage,
} from '../../test/metadata-fixtures.ts';
import { ACCEPTED_CONTENT_TYPES } from './sniff.ts';
import { METADATA_HANDLING, stripMetadata } from './strip-metadata.ts';
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

function personalTags(tags: Record<string, unknown>): string[] {
  return Object.entries(tags)
    .filter(([name, value]) => PERSONAL_TAG.test(name) || JSON.stringify(value).includes('sentinel'))
    .map(([name, value]) => `${name}=${JSON.stringify(value)}`);
}

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

const extension = (fixture: MetadataFixture) => fixture.name.slice(fixture.name.lastIndexOf('.'));

let fixtures: Map<string, MetadataFixture>;
beforeAll(async () => {
  fixtures = new Map((await metadataFixtures()).map((fixture) => [fixture.contentType, fixture]));
}, 180_000);

const STRIPPED_TYPES = [...METADATA_HANDLING].filter(([, handling]) => typeof handling === 'function');

describe('metadata removal covers every accepted type', () => {
  it('has a decision for every type the upload accepts, and a fixture for every type it strips', () => {
    for (const type of ACCEPTED_CONTENT_TYPES) expect(METADATA_HANDLING.has(type), type).toBe(true);
    for (const [type] of STRIPPED_TYPES) expect(fixtures.has(type), type).toBe(true);
  });

  it.each(STRIPPED_TYPES.map(([type]) => type))(
    'leaves no trace of the name or the place in %s',
    async (type) => {
      const fixture = fixtures.get(type)!;
      // The fixture carries the sentinel, so the checks below can fail.
      expect(containsSentinel(fixture.bytes)).toBe(true);
      const { outcome, output } = await stripMetadata(type, fixture.bytes);
      expect(outcome).toBe('removed');
      expect(containsSentinel(output)).toBe(false);
      expect(output.includes('+37.5665')).toBe(false);
      if (!fixture.exiftoolReads || !hasExiftool()) return;
      const before = await exiftoolJson(extension(fixture), fixture.bytes);
      const after = await exiftoolJson(extension(fixture), output);
      expect(personalTags(before).length).toBeGreaterThan(0);
      expect(personalTags(after)).toEqual([]);
      // Still the same kind of file to an independent reader.
      expect(after['ExifTool:Error']).toBeUndefined();
      expect(after['File:MIMEType']).toBe(before['File:MIMEType']);
    },
    30_000,
  );
});

describe('what stays', () => {
  it('keeps a JPEG’s image segments and orientation, and nothing after its end', async () => {
    const input = fixtures.get('image/jpeg')!.bytes;
    const { output } = await stripMetadata('image/jpeg', input);
    const sos = input.indexOf(Buffer.from([0xff, 0xda]));
    const scan = input.subarray(sos, input.indexOf(Buffer.from([0xff, 0xd9]), sos) + 2);
    expect(output.subarray(output.length - scan.length).equals(scan)).toBe(true);
    expect(output.indexOf(Buffer.from([0xff, 0xd9]))).toBe(output.length - 2);
    if (!hasExiftool()) return;
    const tags = await exiftoolJson('.jpg', output);
    expect(tags['EXIF:Orientation']).toBe('Rotate 90 CW');
    expect(tags['File:ImageWidth']).toBe(8);
  });

  it('keeps MP4 media data at its offset, the tag boxes turned into free space of the same size', async () => {
    const input = fixtures.get('video/mp4')!.bytes;
    const { output } = await stripMetadata('video/mp4', input);
    expect(output.length).toBe(input.length);
    expect(output.indexOf('MEDIA-DATA-KEPT!')).toBe(input.indexOf('MEDIA-DATA-KEPT!'));
    expect(output.subarray(0, 40).equals(input.subarray(0, 40))).toBe(true);
    expect(output.includes('udta')).toBe(false);
  });

  it('keeps the audio frames of an MP3 byte for byte', async () => {
    const input = fixtures.get('audio/mpeg')!.bytes;
    const { output } = await stripMetadata('audio/mpeg', input);
    const firstFrame = input.indexOf(Buffer.from([0xff, 0xfb, 0x90]));
    expect(output.equals(input.subarray(firstFrame, firstFrame + 4 * 417))).toBe(true);
  });

  it('keeps a WAV’s format and samples', async () => {
    const { output } = await stripMetadata('audio/wav', fixtures.get('audio/wav')!.bytes);
    expect(output.toString('latin1', 12, 16)).toBe('fmt ');
    expect(output.toString('latin1', 36, 40)).toBe('data');
    expect(output.readUInt32LE(40)).toBe(1600);
    expect(output.length).toBe(44 + 1600);
    expect(output.readUInt32LE(4)).toBe(output.length - 8);
  });

  it('writes a PDF anew from its pages: body, comments and title bar text stay, the earlier revision goes', async () => {
    const input = fixtures.get(PDF)!.bytes;
    expect(input.toString('latin1').split('%%EOF').length - 1).toBe(2); // exiftool's incremental update
    const { output } = await stripMetadata(PDF, input);
    expect(output.toString('latin1').split('%%EOF').length - 1).toBe(1);
    const after = await PDFDocument.load(output, { updateMetadata: false, throwOnInvalidObject: true });
    // Asked first: the library's getters make an empty Info dictionary when there is none.
    expect(after.context.trailerInfo.Info).toBeUndefined();
    expect(output.includes('/Info')).toBe(false);
    expect(after.getAuthor()).toBeUndefined();
    expect(after.getTitle()).toBeUndefined();
    expect(after.catalog.has(PDFName.of('Metadata'))).toBe(false);
    expect(after.getPageCount()).toBe(1);
    const before = await PDFDocument.load(input, { updateMetadata: false });
    expect(pageContents(after).equals(pageContents(before))).toBe(true);
    const page = after.getPage(0).node;
    const annotations = page.lookup(PDFName.of('Annots'), PDFArray);
    const note = after.context.lookup(annotations.get(0)) as unknown as { get(name: PDFName): unknown };
    expect(note.get(PDFName.of('T'))).toBeUndefined();
    expect(note.get(PDFName.of('Contents'))).toBeDefined();
  });

  it('cuts the names out of a docx and copies every other part’s compressed bytes', async () => {
    const input = fixtures.get(DOCX)!.bytes;
    const { output } = await stripMetadata(DOCX, input);
    const before = unzippedText(input);
    const after = unzippedText(output);
    expect(Object.keys(after)).toEqual(Object.keys(before));
    const core = after['docProps/core.xml']!;
    expect(core).not.toContain('dc:creator');
    expect(core).not.toContain('dc:title');
    expect(core).toContain('<cp:revision>3</cp:revision>');
    expect(core).toContain('2026-10-01T09:00:00Z');
    expect(after['docProps/app.xml']).not.toContain('Company');
    expect(after['docProps/app.xml']).toContain('<Application>Microsoft Office Word</Application>');
    expect(after['docProps/custom.xml']).toMatch(/<Properties [^>]*\/>$/);
    expect(after['word/comments.xml']).toContain(
      '<w:comment w:id="0" w:author="" w:date="2026-10-01T09:00:00Z" w:initials="">',
    );
    expect(after['word/document.xml']).toContain('<w:ins w:id="1" w:author="" w:date=');
    expect(after['word/document.xml']).toContain('<w:del w:id="2" w:author=\'\' w:date=');
    expect(after['word/document.xml']).toContain('3층 회의실에서 BODY-TEXT');
    expect(after['word/people.xml']).toContain('<w15:person w15:author="">');
    // The pasted photo keeps its image, without its EXIF.
    const photo = Buffer.from(unzipSync(output)['word/media/image1.jpeg']!);
    expect(photo.includes('Exif')).toBe(false);
    expect(photo.subarray(-3).equals(Buffer.from([0x3f, 0xff, 0xd9]))).toBe(true);
    for (const name of ['[Content_Types].xml', '_rels/.rels']) {
      expect(rawEntry(output, name).equals(rawEntry(input, name)), name).toBe(true);
    }
  });

  it('empties the names of an HWPX package where 한글 expects them, and keeps its stored mimetype first', async () => {
    const input = fixtures.get(HWPX)!.bytes;
    const { output } = await stripMetadata(HWPX, input);
    expect(output.readUInt32LE(0)).toBe(0x04034b50);
    expect(output.readUInt16LE(8)).toBe(0);
    expect(output.toString('latin1', 30, 38)).toBe('mimetype');
    const after = unzippedText(output);
    const packageFile = after['Contents/content.hpf']!;
    expect(packageFile).toContain('<opf:meta name="creator" content="text"></opf:meta>');
    expect(packageFile).toContain('<opf:meta name="lastsaveby" content="text"></opf:meta>');
    expect(packageFile).toContain('<opf:meta name="description" content=""/>');
    expect(packageFile).toContain(
      '<opf:meta name="CreatedDate" content="text">2026-10-01T09:00:00Z</opf:meta>',
    );
    expect(packageFile).toContain('<opf:title></opf:title>');
    expect(after['Contents/header.xml']).toContain('<hh:trackChangeAuthor name="" mark="1"');
    expect(after['Contents/section0.xml']).toContain('3층 회의실에서 BODY-TEXT');
  });

  it('keeps the XML declaration, byte-order mark and the bytes around each cut of a UTF-16 part', async () => {
    const core = `\ufeff<?xml version="1.0" encoding="UTF-16"?><cp:coreProperties xmlns:cp="c" xmlns:dc="d"><dc:creator>${SENTINEL}</dc:creator><cp:revision>2</cp:revision></cp:coreProperties>`;
    const input = Buffer.from(zipSync({ 'docProps/core.xml': [Buffer.from(core, 'utf16le'), { level: 0 }] }));
    expect(containsSentinel(input)).toBe(true);
    const { outcome, output } = await stripMetadata(DOCX, input);
    expect(outcome).toBe('removed');
    const part = Buffer.from(unzipSync(output)['docProps/core.xml']!).toString('utf16le');
    expect(part).toBe(
      '\ufeff<?xml version="1.0" encoding="UTF-16"?><cp:coreProperties xmlns:cp="c" xmlns:dc="d"><cp:revision>2</cp:revision></cp:coreProperties>',
    );
  });
});

describe('files whose metadata cannot be removed', () => {
  it('says none for plain text and unremovable for OLE documents and unknown types, untouched', async () => {
    const text = Buffer.from(`메모 ${SENTINEL}\n`);
    expect(await stripMetadata('text/plain; charset=utf-8', text)).toEqual({ outcome: 'none', output: text });
    const ole = Buffer.from('d0cf11e0a1b11ae1', 'hex');
    for (const type of ['application/x-hwp', 'application/msword', 'application/vnd.ms-excel', 'text/html']) {
      const result = await stripMetadata(type, ole);
      expect(result.outcome, type).toBe('unremovable');
      expect(result.output).toBe(ole);
    }
  });

  it('is unremovable for a damaged, altered or signed package', async () => {
    const input = docxWithAuthor();
    const altered = Buffer.from(input);
    // core.xml is stored, so its bytes can be changed in place: the CRC no longer matches.
    altered.write('4', altered.indexOf('<cp:revision>3') + '<cp:revision>'.length, 'latin1');
    const signedFiles = unzipSync(input);
    signedFiles['_xmlsignatures/sig1.xml'] = strToU8('<Signature/>');
    for (const kept of [
      input.subarray(0, input.length - 30),
      input.subarray(0, Math.floor(input.length / 2)),
      Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(200, 0x41)]),
      altered,
      Buffer.from(zipSync(signedFiles)),
    ]) {
      const { outcome, output } = await stripMetadata(DOCX, kept);
      expect(outcome).toBe('unremovable');
      expect(output).toBe(kept);
    }
  });

  it('is unremovable for a damaged, an encrypted and a signed PDF', async () => {
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
      Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x07)]),
      ...protectedDocuments,
    ]) {
      expect((await stripMetadata(PDF, kept)).outcome).toBe('unremovable');
    }
  });

  it('is unremovable for images and recordings whose structure it cannot follow', async () => {
    const jpeg = fixtures.get('image/jpeg')!.bytes;
    const png = fixtures.get('image/png')!.bytes;
    const mp4 = Buffer.from(fixtures.get('video/mp4')!.bytes);
    mp4.writeUInt32BE(0xfffffff0, 24); // the moov box claims more bytes than the file has
    for (const [type, damaged] of [
      ['image/jpeg', jpeg.subarray(0, 40)],
      ['image/jpeg', Buffer.concat([jpeg.subarray(0, 2), Buffer.from('not a marker')])],
      ['image/png', png.subarray(0, png.indexOf('IEND') - 4)],
      ['image/gif', fixtures.get('image/gif')!.bytes.subarray(0, 30)],
      ['video/mp4', mp4],
      ['audio/mpeg', Buffer.from(`ID3\x03\0\0\0\0\0\x10${SENTINEL}`)],
    ] as const) {
      const { outcome, output } = await stripMetadata(type, damaged);
      expect(outcome, type).toBe('unremovable');
      expect(output).toBe(damaged);
    }
  });

  it('is unremovable, quickly and without a crash, for a ZIP of 65,535 empty entries', async () => {
    const entries = Object.fromEntries(
      Array.from({ length: 65_535 }, (_, index) => [`e/${index}`, new Uint8Array(0)]),
    );
    const input = Buffer.from(zipSync(entries, { level: 0 }));
    expect(input.readUInt16LE(input.length - 22 + 10)).toBe(65_535);
    for (const type of [DOCX, HWPX]) {
      const { outcome, output } = await stripMetadata(type, input);
      expect(outcome).toBe('unremovable');
      expect(output).toBe(input);
    }
  });

  it('is unremovable for the F1 packages of 40,000 unclosed tags, which saxes refuses at their end', async () => {
    for (const [type, input] of [
      [DOCX, unclosedTagsPackage('docx')],
      [HWPX, unclosedTagsPackage('hwpx')],
    ] as const) {
      expect(input.length).toBeLessThan(10_000);
      expect((await stripMetadata(type, input)).outcome).toBe('unremovable');
    }
  });
});

describe('documents written by other tools', () => {
  it.each(['at-once', 'streamed'] as const)(
    'strips a %s-written docx and leaves nothing to strip on a second pass',
    async (layout) => {
      const input = docxWithAuthor(AUTHOR_SENTINEL, layout);
      expect(containsAuthor(input)).toBe(true);
      const first = await stripMetadata(DOCX, input);
      expect(first.outcome).toBe('removed');
      expect(containsAuthor(first.output)).toBe(false);
      const second = await stripMetadata(DOCX, first.output);
      expect(second).toEqual({ outcome: 'removed', output: first.output });
    },
  );

  it.each([{ useObjectStreams: false }, { useObjectStreams: true }])(
    'strips a PDF whose Info sits in an object stream or not (object streams: $useObjectStreams)',
    async (options) => {
      const input = await pdfWithAuthor(AUTHOR_SENTINEL, options);
      expect(containsAuthor(input)).toBe(true);
      const { outcome, output } = await stripMetadata(PDF, input);
      expect(outcome).toBe('removed');
      expect(containsAuthor(output)).toBe(false);
      expect(output.includes('dc:creator')).toBe(false);
    },
  );
});
