import { unremovable } from './metadata-outcome.ts';

/**
 * Image metadata removal without re-encoding: each stripper copies the structures a decoder needs and
 * nothing else (a list of what to keep, not of what to drop), so a tag we have never heard of cannot slip
 * through. Phone photos carry EXIF with GPS coordinates, camera serials and times; editors add XMP with the
 * author's name; JPEGs carry second images (MPF) and vendor trailers after their end. Colour profiles go
 * too: a profile can be named by whoever made it, and its loss only shifts colours slightly.
 * Every stripper runs once through its input, and throws (outcome `unremovable`) on a structure it cannot
 * follow rather than guess.
 */

// ── JPEG ───────────────────────────────────────────────────────────────────────────────────────────────

const JPEG_SOI = Buffer.from([0xff, 0xd8]);
const JPEG_EOI = Buffer.from([0xff, 0xd9]);

/** Segments a decoder needs: tables, frame headers, scans, restart interval, and hierarchical markers. */
function isJpegImageSegment(marker: number): boolean {
  if (marker >= 0xc0 && marker <= 0xcf) return marker !== 0xc8; // SOFn, DHT (C4), DAC (CC); C8 is reserved
  return marker === 0xda || marker === 0xdb || marker === 0xdc || marker === 0xdd || marker === 0xde;
}

/**
 * Adobe's APP14 says whether the samples are YCbCr, RGB or YCCK; without it some images decode in the
 * wrong colours. It is 12 fixed bytes ("Adobe", version, two flag words, the transform) and names no one.
 */
function isAdobeColourTransform(input: Buffer, offset: number, length: number): boolean {
  return length === 14 && input.toString('latin1', offset + 4, offset + 9) === 'Adobe';
}

/** The EXIF orientation (2–8) of an APP1 segment, so a phone photo still shows the right way up. */
function exifOrientation(segment: Buffer): number | undefined {
  if (segment.length < 4 + 6 + 8 || segment.toString('latin1', 4, 10) !== 'Exif\0\0') return undefined;
  const tiff = segment.subarray(10);
  const order = tiff.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') return undefined;
  const little = order === 'II';
  const u16 = (at: number) => (little ? tiff.readUInt16LE(at) : tiff.readUInt16BE(at));
  const u32 = (at: number) => (little ? tiff.readUInt32LE(at) : tiff.readUInt32BE(at));
  const ifd = u32(4);
  if (ifd + 2 > tiff.length) return undefined;
  const count = u16(ifd);
  for (let index = 0; index < count; index += 1) {
    const entry = ifd + 2 + index * 12;
    if (entry + 12 > tiff.length) return undefined;
    if (u16(entry) === 0x0112 && u16(entry + 2) === 3) {
      const value = u16(entry + 8);
      return value >= 2 && value <= 8 ? value : undefined;
    }
  }
  return undefined;
}

/** A fresh APP1 holding the orientation alone: no camera, no time, no place. */
function orientationSegment(orientation: number): Buffer {
  const segment = Buffer.alloc(36);
  segment.writeUInt16BE(0xffe1, 0);
  segment.writeUInt16BE(34, 2);
  segment.write('Exif\0\0MM\0\x2a', 4, 'latin1');
  segment.writeUInt32BE(8, 14); // IFD0 right after the TIFF header
  segment.writeUInt16BE(1, 18); // one entry
  segment.writeUInt16BE(0x0112, 20);
  segment.writeUInt16BE(3, 22); // SHORT
  segment.writeUInt32BE(1, 24);
  segment.writeUInt16BE(orientation, 28);
  segment.writeUInt32BE(0, 32); // no next IFD
  return segment;
}

/** The end of a scan's entropy-coded data: the next marker that is neither stuffing nor a restart. */
function endOfScan(input: Buffer, from: number): number {
  let offset = from;
  for (;;) {
    const at = input.indexOf(0xff, offset);
    if (at === -1 || at + 1 >= input.length) return input.length;
    const next = input[at + 1]!;
    if (next === 0x00 || next === 0xff || (next >= 0xd0 && next <= 0xd7)) {
      offset = at + 1;
      continue;
    }
    return at;
  }
}

/**
 * SOI, the tables, frame header and scans, EOI: every APPn (EXIF, XMP, JFIF thumbnails, ICC, MPF, Photoshop
 * IRB with IPTC), every COM, and anything after the first EOI (the MPF second images, vendor trailers) go.
 */
export function stripJpegMetadata(input: Buffer): Buffer {
  if (input.length < 4 || input[0] !== 0xff || input[1] !== 0xd8) unremovable('jpeg: no SOI');
  const parts: Buffer[] = [JPEG_SOI];
  let orientation: number | undefined;
  let offset = 2;
  let sawScan = false;
  while (offset < input.length) {
    if (input[offset] !== 0xff) unremovable('jpeg: expected a marker');
    while (input[offset + 1] === 0xff) offset += 1; // fill bytes
    if (offset + 1 >= input.length) break;
    const marker = input[offset + 1]!;
    if (marker === 0xd9) {
      parts.push(JPEG_EOI);
      offset = input.length;
      break;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      offset += 2;
      continue;
    }
    if (offset + 4 > input.length) unremovable('jpeg: truncated marker');
    const length = input.readUInt16BE(offset + 2);
    const end = offset + 2 + length;
    if (length < 2 || end > input.length) unremovable('jpeg: segment past the end');
    if (isJpegImageSegment(marker) || (marker === 0xee && isAdobeColourTransform(input, offset, length))) {
      parts.push(input.subarray(offset, end));
    } else if (marker === 0xe1 && orientation === undefined) {
      orientation = exifOrientation(input.subarray(offset, end));
    }
    offset = end;
    if (marker === 0xda) {
      sawScan = true;
      const scanEnd = endOfScan(input, offset);
      parts.push(input.subarray(offset, scanEnd));
      offset = scanEnd;
    }
  }
  if (!sawScan) unremovable('jpeg: no image data');
  if (orientation !== undefined) parts.splice(1, 0, orientationSegment(orientation));
  return Buffer.concat(parts);
}

// ── PNG ────────────────────────────────────────────────────────────────────────────────────────────────

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The chunks that draw the image (APNG's animation chunks included). Text (tEXt, zTXt, iTXt, which holds
 * XMP), eXIf, tIME, iCCP, sPLT's named palettes and every private chunk (C2PA's caBX names its signer) go.
 */
const PNG_IMAGE_CHUNKS = new Set([
  'IHDR',
  'PLTE',
  'IDAT',
  'IEND',
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
  'acTL',
  'fcTL',
  'fdAT',
]);

export function stripPngMetadata(input: Buffer): Buffer {
  if (input.length < 8 || !input.subarray(0, 8).equals(PNG_SIGNATURE)) unremovable('png: no signature');
  const parts: Buffer[] = [PNG_SIGNATURE];
  let offset = 8;
  let sawEnd = false;
  while (!sawEnd) {
    if (offset + 12 > input.length) unremovable('png: truncated');
    const length = input.readUInt32BE(offset);
    const type = input.toString('latin1', offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > input.length) unremovable('png: chunk past the end');
    if (offset === 8 && type !== 'IHDR') unremovable('png: no IHDR');
    if (PNG_IMAGE_CHUNKS.has(type)) parts.push(input.subarray(offset, end));
    sawEnd = type === 'IEND';
    offset = end;
  }
  return Buffer.concat(parts);
}

// ── WebP ───────────────────────────────────────────────────────────────────────────────────────────────

/** The bitstreams, alpha and animation; EXIF, XMP, ICCP and unknown chunks go. */
const WEBP_IMAGE_CHUNKS = new Set(['VP8 ', 'VP8L', 'VP8X', 'ALPH', 'ANIM', 'ANMF']);
const VP8X_ICC = 0x20;
const VP8X_EXIF = 0x08;
const VP8X_XMP = 0x04;

export function stripWebpMetadata(input: Buffer): Buffer {
  if (
    input.length < 12 ||
    input.toString('latin1', 0, 4) !== 'RIFF' ||
    input.toString('latin1', 8, 12) !== 'WEBP'
  ) {
    unremovable('webp: no RIFF header');
  }
  const riffEnd = 8 + input.readUInt32LE(4);
  if (riffEnd > input.length) unremovable('webp: RIFF past the end');
  const chunks: Buffer[] = [];
  let offset = 12;
  while (offset < riffEnd) {
    if (offset + 8 > riffEnd) unremovable('webp: truncated chunk');
    const type = input.toString('latin1', offset, offset + 4);
    const size = input.readUInt32LE(offset + 4);
    const end = offset + 8 + size + (size % 2);
    if (offset + 8 + size > riffEnd) unremovable('webp: chunk past the end');
    let chunk = input.subarray(offset, Math.min(end, riffEnd));
    if (type === 'VP8X') {
      if (size < 10) unremovable('webp: short VP8X');
      chunk = Buffer.from(chunk);
      chunk[8] = chunk[8]! & ~(VP8X_ICC | VP8X_EXIF | VP8X_XMP);
    }
    if (WEBP_IMAGE_CHUNKS.has(type)) chunks.push(chunk);
    offset = end;
  }
  if (chunks.length === 0) unremovable('webp: no image');
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

// ── GIF ────────────────────────────────────────────────────────────────────────────────────────────────

/** Where a run of data sub-blocks (each a length byte and that many bytes, ended by 0) ends. */
function endOfSubBlocks(input: Buffer, from: number): number {
  let offset = from;
  for (;;) {
    if (offset >= input.length) unremovable('gif: truncated data');
    const length = input[offset]!;
    offset += 1 + length;
    if (length === 0) return offset;
  }
}

/** The looping extensions browsers honour; XMP and ICC live in other application extensions. */
const GIF_LOOP_APPLICATIONS = new Set(['NETSCAPE2.0', 'ANIMEXTS1.0']);

/**
 * Header, colour tables, frames with their graphic control, and the loop count; comments, plain-text
 * extensions, other application extensions (XMP, ICC) and anything after the trailer go.
 */
export function stripGifMetadata(input: Buffer): Buffer {
  const signature = input.toString('latin1', 0, 6);
  if (input.length < 13 || (signature !== 'GIF87a' && signature !== 'GIF89a')) unremovable('gif: no header');
  const packed = input[10]!;
  let offset = 13 + (packed & 0x80 ? 3 * 2 ** ((packed & 0x07) + 1) : 0);
  if (offset > input.length) unremovable('gif: truncated colour table');
  const parts: Buffer[] = [input.subarray(0, offset)];
  for (;;) {
    if (offset >= input.length) unremovable('gif: no trailer');
    const introducer = input[offset]!;
    if (introducer === 0x3b) {
      parts.push(input.subarray(offset, offset + 1));
      break;
    }
    if (introducer === 0x2c) {
      if (offset + 10 > input.length) unremovable('gif: truncated frame');
      const framePacked = input[offset + 9]!;
      const table = framePacked & 0x80 ? 3 * 2 ** ((framePacked & 0x07) + 1) : 0;
      const end = endOfSubBlocks(input, offset + 10 + table + 1); // + the LZW minimum code size
      parts.push(input.subarray(offset, end));
      offset = end;
      continue;
    }
    if (introducer !== 0x21 || offset + 2 > input.length) unremovable('gif: unknown block');
    const label = input[offset + 1]!;
    const end = endOfSubBlocks(input, offset + 2);
    const isLoop =
      label === 0xff &&
      input[offset + 2] === 11 &&
      GIF_LOOP_APPLICATIONS.has(input.toString('latin1', offset + 3, offset + 14));
    if (label === 0xf9 || isLoop) parts.push(input.subarray(offset, end));
    offset = end;
  }
  return Buffer.concat(parts);
}
