import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, deflateSync } from 'node:zlib';
import { PDFDict, PDFDocument, PDFHexString, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import { strToU8, zipSync } from 'fflate';

/**
 * One small file of every type the upload accepts, each carrying a reporter's name and the place they
 * were in every metadata field its format has, for the tests that show none of it survives an upload.
 * The files are built here byte by byte, and Debian's exiftool (an independent implementation) writes the
 * tags it knows how to write, as cameras and editors would; `exiftoolJson` reads them back the same way.
 */

export const SENTINEL = '김센티넬 sentinel-7f3a';
const SENTINEL_ASCII = 'sentinel-7f3a';
export const GPS = { latitude: '37.5665', longitude: '126.978', iso6709: '+37.5665+126.9780/' };

const runFile = promisify(execFile);
const EXIFTOOL = '/usr/bin/exiftool';

/**
 * Whether exiftool is here. On CI (`CI=true`) its absence is an error, not a reason to skip: the
 * independent check is what shows the stripping works.
 */
export function hasExiftool(): boolean {
  if (existsSync(EXIFTOOL)) return true;
  if (process.env.CI === 'true') throw new Error('exiftool is missing: install libimage-exiftool-perl');
  return false;
}

/** The sentinel, its Korean or its ASCII half, in UTF-8, UTF-16LE, UTF-16BE or as PDF hex strings. */
export function containsSentinel(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return [SENTINEL, SENTINEL_ASCII, '김센티넬'].some((text) => {
    const utf16be = Buffer.from(text, 'utf16le').swap16();
    return [
      Buffer.from(text),
      Buffer.from(text, 'utf16le'),
      utf16be,
      Buffer.from(utf16be.toString('hex').toUpperCase()),
      Buffer.from(utf16be.toString('hex')),
      Buffer.from(Buffer.from(text).toString('hex').toUpperCase()),
      Buffer.from(Buffer.from(text).toString('hex')),
    ].some((needle) => buffer.includes(needle));
  });
}

async function withTemporaryFile<T>(
  extension: string,
  bytes: Buffer,
  use: (file: string) => Promise<T>,
): Promise<T> {
  const directory = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-metadata-'));
  const file = path.join(directory, `fixture${extension}`);
  try {
    await fs.writeFile(file, bytes);
    return await use(file);
  } finally {
    await fs.rm(directory, { recursive: true, force: true });
  }
}

export async function exiftoolWrite(extension: string, bytes: Buffer, tags: string[]): Promise<Buffer> {
  return withTemporaryFile(extension, bytes, async (file) => {
    await runFile(EXIFTOOL, ['-q', '-overwrite_original', '-charset', 'iptc=UTF8', ...tags, file]);
    return fs.readFile(file);
  });
}

/** All tags exiftool finds, by group and name (`-G`), including embedded and unknown ones. */
export async function exiftoolJson(extension: string, bytes: Buffer): Promise<Record<string, unknown>> {
  return withTemporaryFile(extension, bytes, async (file) => {
    // exiftool exits with 1 for a file it cannot read, with the reason in its JSON.
    const { stdout } = await runFile(EXIFTOOL, ['-j', '-G', '-a', '-u', '-ee', file]).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
    );
    return (JSON.parse(stdout) as Record<string, unknown>[])[0]!;
  });
}

/** Tag names that name or place a person; the check after stripping finds none of them. */
export const PERSONAL_TAG =
  /(^|:)(GPS\w*|Author|Artist|Creator|Title|Comment|UserComment|Keywords|Subject|Copyright|LastModifiedBy|Company|Manager|By-line|Caption-Abstract|ImageDescription|Description|Location\w*|OwnerName|Make|Model|SerialNumber|XPAuthor|XPComment|Lyrics\w*|Band|Album|Originator|Producer|Software)$/;

const GPS_EXIF = [
  `-GPSLatitude=${GPS.latitude}`,
  '-GPSLatitudeRef=N',
  `-GPSLongitude=${GPS.longitude}`,
  '-GPSLongitudeRef=E',
];
const GPS_XMP = [`-XMP-exif:GPSLatitude=${GPS.latitude} N`, `-XMP-exif:GPSLongitude=${GPS.longitude} E`];
const XMP_PERSON = [`-XMP-dc:Creator=${SENTINEL}`, `-XMP-dc:Title=${SENTINEL}`, ...GPS_XMP];
const EXIF_PERSON = [
  `-EXIF:Artist=${SENTINEL}`,
  `-EXIF:XPAuthor=${SENTINEL}`,
  `-EXIF:UserComment=${SENTINEL}`,
  `-EXIF:ImageDescription=${SENTINEL}`,
  `-EXIF:Copyright=${SENTINEL}`,
  '-EXIF:Orientation#=6',
  ...GPS_EXIF,
];

// ── Images ─────────────────────────────────────────────────────────────────────────────────────────────

export function segment(marker: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUInt16BE(0xff00 | marker, 0);
  header.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([header, payload]);
}

/** An 8×8 grey baseline JPEG: one DC and one AC code, each one bit long. */
export function plainJpeg(): Buffer {
  const huffman = (tableClass: number) =>
    segment(0xc4, Buffer.from([tableClass, 1, ...Array(15).fill(0), 0x00]));
  return Buffer.concat([
    Buffer.from([0xff, 0xd8]),
    segment(0xdb, Buffer.from([0, ...Array(64).fill(1)])),
    segment(0xc0, Buffer.from([8, 0, 8, 0, 8, 1, 1, 0x11, 0])),
    huffman(0x00),
    huffman(0x10),
    segment(0xda, Buffer.from([1, 1, 0x00, 0, 63, 0])),
    Buffer.from([0x3f]), // DC difference 0, end of block, padded with ones
    Buffer.from([0xff, 0xd9]),
  ]);
}

async function jpegFixture(): Promise<Buffer> {
  const tagged = await exiftoolWrite('.jpg', plainJpeg(), [
    ...EXIF_PERSON,
    ...XMP_PERSON,
    `-IPTC:By-line=${SENTINEL}`,
    `-IPTC:Caption-Abstract=${SENTINEL}`,
    `-Comment=${SENTINEL}`,
  ]);
  // What exiftool does not write: an MPF index with a second image after EOI, an ICC profile named by its
  // maker, a vendor APP segment, and a vendor trailer.
  const extra = Buffer.concat([
    segment(0xe2, Buffer.concat([Buffer.from('MPF\0'), Buffer.from(`MM\0*${SENTINEL}`)])),
    segment(0xe2, Buffer.concat([Buffer.from('ICC_PROFILE\0\x01\x01'), Buffer.from(`desc ${SENTINEL}`)])),
    segment(0xea, Buffer.from(`Vendor ${SENTINEL} ${GPS.iso6709}`)),
  ]);
  return Buffer.concat([
    tagged.subarray(0, 2),
    extra,
    tagged.subarray(2),
    tagged, // the MPF second image, with all its EXIF
    Buffer.from(`SEFHDR trailer ${SENTINEL} ${GPS.iso6709}`, 'utf16le'),
  ]);
}

export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/** A 2×2 RGB PNG. */
export function plainPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(2, 0);
  header.writeUInt32BE(2, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.from([0, 255, 0, 0, 0, 255, 0, 0, 0, 0, 255, 255, 255, 255]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

async function pngFixture(): Promise<Buffer> {
  const tagged = await exiftoolWrite('.png', plainPng(), [
    ...EXIF_PERSON,
    ...XMP_PERSON,
    `-PNG:Author=${SENTINEL}`,
    `-PNG:Comment=${SENTINEL}`,
    `-PNG:Description=${SENTINEL}`,
  ]);
  // Latin-1 tEXt cannot hold Korean; the ASCII half stands in. A private chunk and text after IEND too.
  const iend = tagged.length - 12;
  return Buffer.concat([
    tagged.subarray(0, iend),
    pngChunk('tEXt', Buffer.from(`Author\0${SENTINEL_ASCII}`, 'latin1')),
    pngChunk('prVt', Buffer.from(SENTINEL)),
    tagged.subarray(iend),
    Buffer.from(SENTINEL),
  ]);
}

/** A 1×1 lossless WebP (VP8L). */
export const PLAIN_WEBP = Buffer.from('UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==', 'base64');

async function webpFixture(): Promise<Buffer> {
  return exiftoolWrite('.webp', PLAIN_WEBP, [...EXIF_PERSON, ...XMP_PERSON]);
}

/** A 1×1 GIF89a with a two-colour table and a looping animation extension. */
function plainGif(): Buffer {
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    Buffer.from([1, 0, 1, 0, 0x80, 0, 0]),
    Buffer.from([0, 0, 0, 255, 255, 255]),
    Buffer.from([0x21, 0xff, 11]),
    Buffer.from('NETSCAPE2.0', 'latin1'),
    Buffer.from([3, 1, 0, 0, 0]),
    Buffer.from([0x21, 0xf9, 4, 0, 10, 0, 0, 0]),
    Buffer.from([0x2c, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 0x01, 0]),
    Buffer.from([0x3b]),
  ]);
}

async function gifFixture(): Promise<Buffer> {
  const tagged = await exiftoolWrite('.gif', plainGif(), [...XMP_PERSON, `-Comment=${SENTINEL}`]);
  const text = Buffer.from(SENTINEL);
  // A plain-text extension (a caption drawn over the image) and data after the trailer.
  const plainText = Buffer.concat([
    Buffer.from([0x21, 0x01, 12, ...Array(12).fill(0), text.length]),
    text,
    Buffer.from([0]),
  ]);
  const trailer = tagged.length - 1;
  return Buffer.concat([tagged.subarray(0, trailer), plainText, tagged.subarray(trailer), text]);
}

// ── PDF ────────────────────────────────────────────────────────────────────────────────────────────────

async function pdfFixture(): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([300, 200]);
  page.drawText('BODY-TEXT', { x: 20, y: 100, size: 12, font });
  document.setTitle(`Microsoft Word - ${SENTINEL}.docx`);
  document.setAuthor(SENTINEL);
  document.setSubject(SENTINEL);
  document.setKeywords([SENTINEL, GPS.iso6709]);
  document.setCreator(SENTINEL);
  document.setProducer(SENTINEL);
  const info = document.context.lookup(document.context.trailerInfo.Info, PDFDict);
  info.set(PDFName.of('SourceModified'), PDFHexString.fromText(SENTINEL));
  // A sticky note, whose /T is its author.
  const note = document.context.obj({
    Type: 'Annot',
    Subtype: 'Text',
    Rect: [10, 10, 30, 30],
    T: PDFHexString.fromText(SENTINEL),
    Contents: PDFHexString.fromText('확인 필요'),
  });
  page.node.set(PDFName.of('Annots'), document.context.obj([document.context.register(note)]));
  const xmp = Buffer.from(
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${SENTINEL}</rdf:li></rdf:Seq></dc:creator></rdf:Description>` +
      '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
  );
  const metadata = document.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  document.catalog.set(PDFName.of('Metadata'), document.context.register(metadata));
  const saved = Buffer.from(await document.save({ useObjectStreams: false }));
  // exiftool appends an incremental update, so the first revision's Info stays in the bytes below it.
  return exiftoolWrite('.pdf', saved, [
    `-PDF:Author=${SENTINEL} 2`,
    `-PDF:Title=${SENTINEL} 2`,
    ...XMP_PERSON,
  ]);
}

// ── Audio ──────────────────────────────────────────────────────────────────────────────────────────────

function synchsafe(size: number): Buffer {
  return Buffer.from([(size >> 21) & 0x7f, (size >> 14) & 0x7f, (size >> 7) & 0x7f, size & 0x7f]);
}

/** ID3v2.3 text frames in UTF-16 with a byte-order mark, and a comment. */
function id3v2(version: 3 | 4, { footer = false } = {}): Buffer {
  const text = (id: string, value: string) => {
    const data = Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(value, 'utf16le')]);
    const header = Buffer.alloc(10);
    header.write(id, 0, 'latin1');
    if (version === 4) synchsafe(data.length).copy(header, 4);
    else header.writeUInt32BE(data.length, 4);
    return Buffer.concat([header, data]);
  };
  const frames = Buffer.concat([
    text('TPE1', SENTINEL),
    text('TIT2', `${SENTINEL} 녹음`),
    text('TXXX', `\0GPS ${GPS.iso6709}`),
    text('COMM', `kor\0${SENTINEL}`),
  ]);
  const header = Buffer.concat([
    Buffer.from('ID3', 'latin1'),
    Buffer.from([version, 0, footer ? 0x10 : 0]),
    synchsafe(frames.length),
  ]);
  const tail = footer ? Buffer.concat([Buffer.from('3DI', 'latin1'), header.subarray(3)]) : Buffer.alloc(0);
  return Buffer.concat([header, frames, tail]);
}

function id3v1(): Buffer {
  const tag = Buffer.alloc(128);
  tag.write('TAG', 0, 'latin1');
  tag.write(SENTINEL_ASCII, 3, 'latin1'); // title
  tag.write(SENTINEL_ASCII, 33, 'latin1'); // artist
  tag.write(GPS.iso6709, 97, 'latin1'); // comment
  return tag;
}

function id3v1Extended(): Buffer {
  const tag = Buffer.alloc(227);
  tag.write('TAG+', 0, 'latin1');
  tag.write(SENTINEL_ASCII, 4, 'latin1');
  tag.write(SENTINEL_ASCII, 64, 'latin1');
  return tag;
}

function apeTag(): Buffer {
  const item = (key: string, value: string) => {
    const data = Buffer.from(value);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(data.length, 0);
    return Buffer.concat([header, Buffer.from(`${key}\0`, 'latin1'), data]);
  };
  const items = Buffer.concat([item('Artist', SENTINEL), item('Comment', GPS.iso6709)]);
  const frame = (isHeader: boolean) => {
    const block = Buffer.alloc(32);
    block.write('APETAGEX', 0, 'latin1');
    block.writeUInt32LE(2000, 8);
    block.writeUInt32LE(items.length + 32, 12);
    block.writeUInt32LE(2, 16);
    block.writeUInt32LE((0x80000000 | (isHeader ? 0x20000000 : 0)) >>> 0, 20);
    return block;
  };
  return Buffer.concat([frame(true), items, frame(false)]);
}

/** MPEG-1 layer III frames, 128 kbit/s at 44.1 kHz: 417 bytes each, silent. */
function mp3Frames(count: number): Buffer {
  const frame = Buffer.alloc(417);
  frame.set([0xff, 0xfb, 0x90, 0x44]);
  return Buffer.concat(Array(count).fill(frame));
}

function mp3Fixture(): Buffer {
  return Buffer.concat([
    id3v2(3),
    mp3Frames(4),
    id3v2(4, { footer: true }),
    apeTag(),
    id3v1Extended(),
    id3v1(),
  ]);
}

/** ADTS AAC-LC frames at 44.1 kHz, mono. */
function aacFrames(count: number): Buffer {
  const length = 7 + 16;
  const header = Buffer.from([
    0xff,
    0xf1,
    0x50,
    0x40 | ((length >> 11) & 0x03),
    (length >> 3) & 0xff,
    ((length & 0x07) << 5) | 0x1f,
    0xfc,
  ]);
  return Buffer.concat(Array(count).fill(Buffer.concat([header, Buffer.alloc(16)])));
}

function aacFixture(): Buffer {
  return Buffer.concat([id3v2(4), aacFrames(4), apeTag(), id3v1()]);
}

/** AMR-NB at 12.2 kbit/s: a one-byte frame header and 31 bytes each. */
function amrFixture(): Buffer {
  const frame = Buffer.concat([Buffer.from([0x3c]), Buffer.alloc(31)]);
  return Buffer.concat([id3v2(3), Buffer.from('#!AMR\n', 'latin1'), ...Array(4).fill(frame), id3v1()]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, Buffer.alloc(data.length % 2)]);
}

function wavFixture(): Buffer {
  const format = Buffer.alloc(16);
  format.writeUInt16LE(1, 0); // PCM
  format.writeUInt16LE(1, 2); // mono
  format.writeUInt32LE(8000, 4);
  format.writeUInt32LE(16000, 8);
  format.writeUInt16LE(2, 12);
  format.writeUInt16LE(16, 14);
  const info = Buffer.concat([
    Buffer.from('INFO', 'latin1'),
    riffChunk('IART', Buffer.from(`${SENTINEL}\0`)),
    riffChunk('INAM', Buffer.from(`${SENTINEL} 녹음\0`)),
    riffChunk('ICMT', Buffer.from(`${GPS.iso6709}\0`)),
  ]);
  const broadcast = Buffer.alloc(602);
  broadcast.write(SENTINEL, 0); // description
  broadcast.write(SENTINEL_ASCII, 256, 'latin1'); // originator
  const body = Buffer.concat([
    Buffer.from('WAVE', 'latin1'),
    riffChunk('fmt ', format),
    riffChunk('bext', broadcast),
    riffChunk('LIST', info),
    riffChunk('data', Buffer.alloc(1600)),
    riffChunk('id3 ', id3v2(3)),
    riffChunk('_PMX', Buffer.from(`<x:xmpmeta><dc:creator>${SENTINEL}</dc:creator></x:xmpmeta>`)),
  ]);
  return Buffer.concat([
    Buffer.from('RIFF', 'latin1'),
    Buffer.from(new Uint32Array([body.length]).buffer),
    body,
  ]);
}

// ── MP4 family ─────────────────────────────────────────────────────────────────────────────────────────

export function box(type: string, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const header = Buffer.alloc(8);
  header.writeUInt32BE(body.length + 8, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

const u32 = (...values: number[]) =>
  Buffer.concat(
    values.map((value) => {
      const bytes = Buffer.alloc(4);
      bytes.writeUInt32BE(value);
      return bytes;
    }),
  );

/** A track of timed metadata, as an action camera records its GPS, with one sample at `sampleOffset`. */
function gpsTrack(sampleOffset: number, sampleSize: number): Buffer {
  const trackHeader = Buffer.alloc(84);
  trackHeader.writeUInt32BE(1, 0); // enabled
  trackHeader.writeUInt32BE(1, 12); // track 1
  return box(
    'trak',
    box('tkhd', trackHeader),
    box(
      'mdia',
      box('mdhd', u32(0, 0, 0, 1000, 1000), Buffer.from([0x55, 0xc4, 0, 0])),
      box(
        'hdlr',
        u32(0, 0),
        Buffer.from('meta', 'latin1'),
        u32(0, 0, 0),
        Buffer.from('GoPro MET\0', 'latin1'),
      ),
      box(
        'minf',
        box('nmhd', u32(0)),
        box('dinf', box('dref', u32(0, 1), box('url ', u32(1)))),
        box(
          'stbl',
          box('stsd', u32(0, 1), box('gpmd', Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]))),
          box('stts', u32(0, 1, 1, 1000)),
          box('stsc', u32(0, 1, 1, 1, 1)),
          box('stsz', u32(0, 0, 1, sampleSize)),
          box('stco', u32(0, 1, sampleOffset)),
        ),
      ),
    ),
  );
}

/** ftyp, a movie with a GPS track, and media data; exiftool adds the tags. */
export function plainMp4(brand: string): Buffer {
  const movieHeader = Buffer.alloc(100);
  movieHeader.writeUInt32BE(1000, 12);
  movieHeader.writeUInt32BE(0x00010000, 20);
  movieHeader.writeUInt16BE(0x0100, 24);
  [0x00010000, 0, 0, 0, 0x00010000, 0, 0, 0, 0x40000000].forEach((value, index) => {
    movieHeader.writeUInt32BE(value, 36 + index * 4);
  });
  movieHeader.writeUInt32BE(2, 96);
  const fileType = box('ftyp', Buffer.from(`${brand}\0\0\0\0${brand}isom`, 'latin1'));
  const kept = Buffer.from('MEDIA-DATA-KEPT!');
  const sample = Buffer.from(`GPS ${GPS.iso6709} ${SENTINEL}`);
  const movie = (offset: number) => box('moov', box('mvhd', movieHeader), gpsTrack(offset, sample.length));
  const sampleOffset = fileType.length + movie(0).length + 8 + kept.length;
  return Buffer.concat([fileType, movie(sampleOffset), box('mdat', kept, sample)]);
}

async function mp4Fixture(brand: string, extension: string): Promise<Buffer> {
  const coordinates = `${GPS.latitude}, ${GPS.longitude}`;
  const tagged = await exiftoolWrite(extension, plainMp4(brand), [
    `-ItemList:Artist=${SENTINEL}`,
    `-ItemList:Title=${SENTINEL}`,
    `-UserData:Artist=${SENTINEL}`,
    `-UserData:Author=${SENTINEL}`,
    `-UserData:GPSCoordinates=${coordinates}`,
    `-Keys:Author=${SENTINEL}`,
    `-Keys:GPSCoordinates=${coordinates}`,
    ...XMP_PERSON,
  ]);
  // A top-level XMP uuid box as Adobe writes it, and a 3GP location box inside the movie's user data.
  const xmpUuid = box(
    'uuid',
    Buffer.from('be7acfcb97a942e89c71999491e3afac', 'hex'),
    Buffer.from(`<x:xmpmeta><dc:creator>${SENTINEL}</dc:creator></x:xmpmeta>`),
  );
  return Buffer.concat([tagged, xmpUuid]);
}

// ── Office and HWPX ────────────────────────────────────────────────────────────────────────────────────

export const CONTENT_TYPES = (overrides: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>${overrides}<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/><Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>`;

export const ROOT_RELS = (mainType: string, target: string) =>
  `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${mainType}" Target="${target}"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="docProps/custom.xml"/></Relationships>`;

export const OFFICE_DOCUMENT =
  'http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument';

function docProps(application: string): Record<string, string> {
  return {
    'docProps/core.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${SENTINEL} 진술서</dc:title><dc:subject>${SENTINEL}</dc:subject><dc:creator>${SENTINEL}</dc:creator><cp:keywords>${GPS.iso6709}</cp:keywords><dc:description>${SENTINEL} ${GPS.iso6709}</dc:description><cp:lastModifiedBy>${SENTINEL}</cp:lastModifiedBy><cp:revision>3</cp:revision><dcterms:created xsi:type="dcterms:W3CDTF">2026-10-01T09:00:00Z</dcterms:created></cp:coreProperties>`,
    'docProps/app.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Template>C:\\Users\\${SENTINEL}\\Normal.dotm</Template><Application>${application}</Application><Manager>${SENTINEL}</Manager><Company>${SENTINEL} 주식회사</Company><HyperlinkBase>file:///C:/Users/${SENTINEL}/</HyperlinkBase></Properties>`,
    'docProps/custom.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="_AuthorEmail"><vt:lpwstr>${SENTINEL_ASCII}@a.example</vt:lpwstr></property><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="3" name="GPS"><vt:lpwstr>${GPS.iso6709}</vt:lpwstr></property></Properties>`,
  };
}

/** Parts stored uncompressed, so that a test of the upload's raw bytes proves the name was there. */
export function officeZip(parts: Record<string, string | Buffer>): Buffer {
  return Buffer.from(
    zipSync(
      Object.fromEntries(
        Object.entries(parts).map(([name, content]) => [
          name,
          [typeof content === 'string' ? strToU8(content) : content, { level: 0 }],
        ]),
      ),
    ),
  );
}

/** A picture as a phone saved it before it was pasted into a document: EXIF with the owner and place. */
function pastedPhoto(): Buffer {
  const exif = Buffer.concat([
    Buffer.from('Exif\0\0MM\0*\0\0\0\x08', 'latin1'),
    Buffer.from(`Artist ${SENTINEL} GPS ${GPS.iso6709}`),
  ]);
  const jpeg = plainJpeg();
  return Buffer.concat([jpeg.subarray(0, 2), segment(0xe1, exif), jpeg.subarray(2)]);
}

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const W15 = 'xmlns:w15="http://schemas.microsoft.com/office/word/2012/wordml"';

export function docxFixture(): Buffer {
  return officeZip({
    '[Content_Types].xml': CONTENT_TYPES(
      '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/comments.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml"/><Override PartName="/word/people.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml"/>',
    ),
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document ${W}><w:body><w:p><w:r><w:t>3층 회의실에서 BODY-TEXT</w:t></w:r><w:ins w:id="1" w:author="${SENTINEL}" w:date="2026-10-01T09:00:00Z"><w:r><w:t>추가</w:t></w:r></w:ins><w:del w:id="2" w:author='${SENTINEL}' w:date="2026-10-01T09:00:00Z"><w:r><w:delText>삭제</w:delText></w:r></w:del><w:commentRangeStart w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p></w:body></w:document>`,
    'word/comments.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:comments ${W}><w:comment w:id="0" w:author="${SENTINEL}" w:date="2026-10-01T09:00:00Z" w:initials="김"><w:p><w:r><w:t>의견</w:t></w:r></w:p></w:comment></w:comments>`,
    'word/media/image1.jpeg': pastedPhoto(),
    // A document from a SharePoint library carries its owner as a person column.
    'customXml/item1.xml': `<?xml version="1.0" encoding="utf-8"?><p:properties xmlns:p="http://schemas.microsoft.com/office/2006/metadata/properties" xmlns:pc="http://schemas.microsoft.com/office/infopath/2007/PartnerControls"><documentManagement><Owner xmlns="http://sharepoint.example"><UserInfo><DisplayName>${SENTINEL}</DisplayName><AccountId>12</AccountId><AccountType/></UserInfo></Owner></documentManagement></p:properties>`,
    'word/people.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w15:people ${W15}><w15:person w15:author="${SENTINEL}"><w15:presenceInfo w15:providerId="AD" w15:userId="S::${SENTINEL_ASCII}@company.example::1"/></w15:person></w15:people>`,
    ...docProps('Microsoft Office Word'),
  });
}

function xlsxFixture(): Buffer {
  return officeZip({
    '[Content_Types].xml': CONTENT_TYPES(
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
    ),
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'xl/workbook.xml'),
    'xl/workbook.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:x15ac="http://schemas.microsoft.com/office/spreadsheetml/2010/11/ac"><x15ac:absPath url="C:\\Users\\${SENTINEL}\\Desktop\\"/><sheets><sheet name="근무기록" sheetId="1"/></sheets></workbook>`,
    'xl/comments1.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>${SENTINEL}</author></authors><commentList><comment ref="A1" authorId="0"><text><t>메모</t></text></comment></commentList></comments>`,
    'xl/persons/person.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments"><person displayName="${SENTINEL}" id="{1}" userId="${SENTINEL_ASCII}@company.example" providerId="AD"/></personList>`,
    ...docProps('Microsoft Excel'),
  });
}

function pptxFixture(): Buffer {
  return officeZip({
    '[Content_Types].xml': CONTENT_TYPES(
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>',
    ),
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'ppt/presentation.xml'),
    'ppt/presentation.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>`,
    'ppt/commentAuthors.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<p:cmAuthorLst xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cmAuthor id="1" name="${SENTINEL}" initials="김" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>`,
    'ppt/authors.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<p188:authorLst xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"><p188:author id="{1}" name="${SENTINEL}" initials="김" userId="${SENTINEL_ASCII}@company.example" providerId="AD"/></p188:authorLst>`,
    ...docProps('Microsoft Office PowerPoint'),
  });
}

function hwpxFixture(): Buffer {
  return officeZip({
    mimetype: 'application/hwp+zip',
    'version.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="0" buildNumber="1" os="1" xmlVersion="1.4" application="Hancom Office Hangul" appVersion="12.0.0.1"/>',
    'META-INF/container.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/></ocf:rootfiles></ocf:container>',
    'Contents/content.hpf': `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/" xmlns:dc="http://purl.org/dc/elements/1.1/" version="" unique-identifier="" id=""><opf:metadata><opf:title>${SENTINEL} 진술서</opf:title><opf:language>ko</opf:language><opf:meta name="creator" content="text">${SENTINEL}</opf:meta><opf:meta name="subject" content="text">${GPS.iso6709}</opf:meta><opf:meta name="description" content="${SENTINEL}"/><opf:meta name="lastsaveby" content="text">${SENTINEL}</opf:meta><opf:meta name="CreatedDate" content="text">2026-10-01T09:00:00Z</opf:meta><opf:meta name="keyword" content="text">${SENTINEL}</opf:meta><dc:creator>${SENTINEL}</dc:creator></opf:metadata><opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/><opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/></opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/><opf:itemref idref="section0" linear="yes"/></opf:spine></opf:package>`,
    'Contents/header.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hh:head xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head" version="1.4" secCnt="1"><hh:trackChangeAuthors><hh:trackChangeAuthor name="${SENTINEL}" mark="1" color="#FF0000"/></hh:trackChangeAuthors></hh:head>`,
    'Contents/section0.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p id="1"><hp:run charPrIDRef="0"><hp:t>3층 회의실에서 BODY-TEXT</hp:t></hp:run></hp:p></hs:sec>`,
    'BinData/image1.jpg': pastedPhoto(),
    'Preview/PrvText.txt': '3층 회의실에서 BODY-TEXT',
  });
}

// ── All of them ────────────────────────────────────────────────────────────────────────────────────────

export interface MetadataFixture {
  /** The content type the upload sniffs for it. */
  contentType: string;
  /** A file name that sniffs to it (HWPX is told from other ZIPs by its extension). */
  name: string;
  bytes: Buffer;
  /** exiftool reads the format's tags: the independent check applies. */
  exiftoolReads: boolean;
}

/** Every accepted type that can carry metadata, each with the sentinel in every place its format has. */
export async function metadataFixtures(): Promise<MetadataFixture[]> {
  const OOXML = 'application/vnd.openxmlformats-officedocument';
  return [
    { contentType: 'image/jpeg', name: 'photo.jpg', bytes: await jpegFixture(), exiftoolReads: true },
    { contentType: 'image/png', name: 'capture.png', bytes: await pngFixture(), exiftoolReads: true },
    { contentType: 'image/webp', name: 'capture.webp', bytes: await webpFixture(), exiftoolReads: true },
    { contentType: 'image/gif', name: 'capture.gif', bytes: await gifFixture(), exiftoolReads: true },
    { contentType: 'application/pdf', name: 'statement.pdf', bytes: await pdfFixture(), exiftoolReads: true },
    { contentType: 'audio/mpeg', name: 'recording.mp3', bytes: mp3Fixture(), exiftoolReads: true },
    // exiftool 12 reads neither ADTS nor AMR: the byte check stands alone for them.
    { contentType: 'audio/aac', name: 'recording.aac', bytes: aacFixture(), exiftoolReads: false },
    { contentType: 'audio/amr', name: 'recording.amr', bytes: amrFixture(), exiftoolReads: false },
    { contentType: 'audio/wav', name: 'recording.wav', bytes: wavFixture(), exiftoolReads: true },
    {
      contentType: 'audio/mp4',
      name: 'recording.m4a',
      bytes: await mp4Fixture('M4A ', '.m4a'),
      exiftoolReads: true,
    },
    {
      contentType: 'video/mp4',
      name: 'video.mp4',
      bytes: await mp4Fixture('isom', '.mp4'),
      exiftoolReads: true,
    },
    {
      contentType: 'video/quicktime',
      name: 'video.mov',
      bytes: await mp4Fixture('qt  ', '.mov'),
      exiftoolReads: true,
    },
    {
      contentType: 'video/3gpp',
      name: 'video.3gp',
      bytes: await mp4Fixture('3gp4', '.3gp'),
      exiftoolReads: true,
    },
    {
      contentType: `${OOXML}.wordprocessingml.document`,
      name: 'statement.docx',
      bytes: docxFixture(),
      exiftoolReads: true,
    },
    {
      contentType: `${OOXML}.spreadsheetml.sheet`,
      name: 'timesheet.xlsx',
      bytes: xlsxFixture(),
      exiftoolReads: true,
    },
    {
      contentType: `${OOXML}.presentationml.presentation`,
      name: 'slides.pptx',
      bytes: pptxFixture(),
      exiftoolReads: true,
    },
    {
      contentType: 'application/hwp+zip',
      name: 'statement.hwpx',
      bytes: hwpxFixture(),
      exiftoolReads: false,
    },
  ];
}

/**
 * Finding F1: a tiny package whose properties part opens 40,000 elements and never closes them. Compressed,
 * as an attacker would send it (a few kilobytes).
 */
export function unclosedTagsPackage(kind: 'docx' | 'hwpx', count = 40_000): Buffer {
  const deflated = (text: string): [Uint8Array, { level: 9 }] => [strToU8(text), { level: 9 }];
  if (kind === 'docx') {
    return Buffer.from(
      zipSync({
        '[Content_Types].xml': deflated(
          CONTENT_TYPES(
            '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
          ),
        ),
        '_rels/.rels': deflated(ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml')),
        'word/document.xml': deflated(`<w:document ${W}><w:body/></w:document>`),
        'docProps/core.xml': deflated(
          `<?xml version="1.0"?><cp:coreProperties xmlns:cp="c" xmlns:dc="d">${'<dc:creator>'.repeat(count)}`,
        ),
      }),
    );
  }
  return Buffer.from(
    zipSync({
      mimetype: [strToU8('application/hwp+zip'), { level: 0 }],
      'Contents/content.hpf': deflated(
        `<?xml version="1.0"?><opf:package xmlns:opf="o"><opf:metadata>${'<opf:meta name="creator" content="text">'.repeat(count)}`,
      ),
    }),
  );
}

/**
 * A well-formed Word document whose body is `inflatedBytes` of repeated paragraphs: a few kilobytes to upload,
 * hundreds of times that to read. Built as an attacker would build the upload that held the metadata worker.
 */
export function inflatingPackage(inflatedBytes: number): Buffer {
  const paragraph = '<w:p><w:r><w:t>가나다라마바사</w:t></w:r></w:p>';
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document ${W}><w:body>`;
  const tail = '</w:body></w:document>';
  const count = Math.max(
    1,
    Math.ceil((inflatedBytes - head.length - tail.length) / Buffer.byteLength(paragraph)),
  );
  const deflated = (text: string): [Uint8Array, { level: 9 }] => [strToU8(text), { level: 9 }];
  return Buffer.from(
    zipSync({
      '[Content_Types].xml': deflated(
        CONTENT_TYPES(
          '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
        ),
      ),
      '_rels/.rels': deflated(ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml')),
      'word/document.xml': deflated(head + paragraph.repeat(count) + tail),
    }),
  );
}
