import { unremovable } from './metadata-outcome.ts';

/**
 * Recordings and videos: phones and editors write the owner's name, the title ("김OO 녹음 3"), and the
 * place (`©xyz`, 3GP `loci`) into tags. Each stripper here walks its container once.
 */

// ── Tags around a stream of audio frames: MP3, ADTS AAC, AMR ───────────────────────────────────────────

function synchsafe(input: Buffer, offset: number): number {
  const bytes = input.subarray(offset, offset + 4);
  if (bytes.some((byte) => byte & 0x80)) unremovable('id3: bad size');
  return (bytes[0]! << 21) | (bytes[1]! << 14) | (bytes[2]! << 7) | bytes[3]!;
}

function isAt(input: Buffer, offset: number, text: string): boolean {
  return offset >= 0 && input.toString('latin1', offset, offset + text.length) === text;
}

/**
 * The audio frames without the tags before and after them: ID3v2 at the start (more than one, some
 * taggers stack them), and at the end in any order an appended ID3v2 (footer `3DI`), APEv2, Lyrics3
 * and ID3v1 (`TAG`, with the 227-byte `TAG+` extension in front of it).
 */
export function trimAudioTags(input: Buffer): Buffer {
  let start = 0;
  while (isAt(input, start, 'ID3')) {
    if (start + 10 > input.length) unremovable('id3: truncated header');
    const hasFooter = (input[start + 5]! & 0x10) !== 0;
    start += 10 + synchsafe(input, start + 6) + (hasFooter ? 10 : 0);
    if (start > input.length) unremovable('id3: tag past the end');
  }
  let end = input.length;
  for (;;) {
    if (end - 128 >= start && isAt(input, end - 128, 'TAG')) {
      end -= 128;
      if (end - 227 >= start && isAt(input, end - 227, 'TAG+')) end -= 227;
    } else if (end - 32 >= start && isAt(input, end - 32, 'APETAGEX')) {
      const flags = input.readUInt32LE(end - 32 + 20);
      const size = input.readUInt32LE(end - 32 + 12) + (flags & 0x80000000 ? 32 : 0);
      if (size < 32 || end - size < start) unremovable('ape: tag past the start');
      end -= size;
    } else if (end - 10 >= start && isAt(input, end - 10, '3DI')) {
      const size = 20 + synchsafe(input, end - 10 + 6);
      if (end - size < start) unremovable('id3: appended tag past the start');
      end -= size;
    } else if (end - 15 >= start && isAt(input, end - 9, 'LYRICS200')) {
      const digits = input.toString('latin1', end - 15, end - 9);
      if (!/^\d{6}$/.test(digits)) unremovable('lyrics3: bad size');
      const size = Number(digits) + 15;
      if (end - size < start || !isAt(input, end - size, 'LYRICSBEGIN')) unremovable('lyrics3: bad tag');
      end -= size;
    } else if (end - 9 >= start && isAt(input, end - 9, 'LYRICSEND')) {
      // Lyrics3 v1 has no size: it starts at a LYRICSBEGIN at most 5100 bytes earlier.
      const from = Math.max(start, end - 9 - 5100);
      const at = input.lastIndexOf('LYRICSBEGIN', end - 9, 'latin1');
      if (at < from) unremovable('lyrics3: no start');
      end = at;
    } else {
      break;
    }
  }
  return input.subarray(start, end);
}

/** MP3 and ADTS AAC: what is left once the tags are gone must start with a frame. */
export function stripMpegAudioMetadata(input: Buffer): Buffer {
  const frames = trimAudioTags(input);
  if (frames.length < 2 || frames[0] !== 0xff || (frames[1]! & 0xe0) !== 0xe0)
    unremovable('mpeg audio: no frame after the tags');
  return frames;
}

/** AMR has no metadata of its own; a tagger may still have wrapped it in ID3 or APE. */
export function stripAmrMetadata(input: Buffer): Buffer {
  const frames = trimAudioTags(input);
  if (!isAt(frames, 0, '#!AMR')) unremovable('amr: no header after the tags');
  return frames;
}

// ── WAV ────────────────────────────────────────────────────────────────────────────────────────────────

/** The format and the samples. LIST/INFO (artist, title, comment), id3, bext, iXML, XMP and cue labels go. */
const WAV_AUDIO_CHUNKS = new Set(['fmt ', 'fact', 'data']);

export function stripWavMetadata(input: Buffer): Buffer {
  if (
    input.length < 12 ||
    input.toString('latin1', 0, 4) !== 'RIFF' ||
    input.toString('latin1', 8, 12) !== 'WAVE'
  ) {
    unremovable('wav: no RIFF header');
  }
  // A recorder cut off mid-recording can leave the sizes short or too long; the samples are still kept.
  const riffEnd = Math.min(input.length, 8 + input.readUInt32LE(4));
  const chunks: Buffer[] = [];
  let offset = 12;
  let hasFormat = false;
  let hasData = false;
  while (offset + 8 <= riffEnd) {
    const type = input.toString('latin1', offset, offset + 4);
    const size = input.readUInt32LE(offset + 4);
    if (type === 'data' && offset + 8 + size > riffEnd) {
      const header = Buffer.from(input.subarray(offset, offset + 8));
      const samples = input.subarray(offset + 8, riffEnd);
      header.writeUInt32LE(samples.length, 4);
      chunks.push(header, samples, Buffer.alloc(samples.length % 2));
      hasData = true;
      break;
    }
    const end = offset + 8 + size + (size % 2);
    if (offset + 8 + size > riffEnd) unremovable('wav: chunk past the end');
    if (WAV_AUDIO_CHUNKS.has(type)) {
      chunks.push(input.subarray(offset, Math.min(end, riffEnd)));
      if (end > riffEnd) chunks.push(Buffer.alloc(1));
      hasFormat ||= type === 'fmt ';
      hasData ||= type === 'data';
    }
    offset = end;
  }
  if (!hasFormat || !hasData) unremovable('wav: no format or no samples');
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WAVE', 8, 'latin1');
  return Buffer.concat([header, body]);
}

// ── MP4, M4A, MOV, 3GP (ISO base media / QuickTime) ────────────────────────────────────────────────────

/**
 * Boxes that hold tags, never samples: user data (QuickTime `©nam`, `©ART`, `©xyz`; 3GP `auth`, `titl`,
 * `loci`), `meta` (iTunes `ilst`, QuickTime keys with the location and device), `uuid` (XMP, and the camera
 * makers' own metadata), Microsoft's `Xtra`. They are turned into `free` boxes of zeros, in place: moving
 * the media data would break the chunk offset tables (stco/co64) that point into it.
 */
const TAG_BOXES = new Set(['udta', 'meta', 'uuid', 'ilst', 'Xtra', 'XMP_', '\u00a9xyz', 'loci', 'cprt']);
/** Boxes that hold other boxes and may hold tag boxes. Sample tables are not entered. */
const CONTAINER_BOXES = new Set(['moov', 'trak', 'mdia', 'minf', 'edts', 'moof', 'traf', 'mvex']);
const MAX_BOX_DEPTH = 8;

function blankTagBoxes(output: Buffer, start: number, end: number, depth: number): number {
  let blanked = 0;
  let offset = start;
  while (offset < end) {
    if (offset + 8 > end) unremovable('mp4: truncated box header');
    const type = output.toString('latin1', offset + 4, offset + 8);
    let size = output.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > end) unremovable('mp4: truncated large box header');
      const large = output.readBigUInt64BE(offset + 8);
      if (large > BigInt(end - offset)) unremovable('mp4: box past the end');
      size = Number(large);
      header = 16;
    } else if (size === 0) {
      if (depth > 0) unremovable('mp4: open-ended inner box');
      size = end - offset; // the last box runs to the end of the file
    }
    if (size < header || offset + size > end) unremovable('mp4: box past the end');
    if (TAG_BOXES.has(type)) {
      output.write('free', offset + 4, 'latin1');
      output.fill(0, offset + header, offset + size);
      blanked += 1;
    } else if (CONTAINER_BOXES.has(type)) {
      if (depth >= MAX_BOX_DEPTH) unremovable('mp4: boxes nested too deep');
      blanked += blankTagBoxes(output, offset + header, offset + size, depth + 1);
    }
    offset += size;
  }
  return blanked;
}

export function stripMp4Metadata(input: Buffer): Buffer {
  if (input.length < 8) unremovable('mp4: too short');
  const output = Buffer.from(input);
  blankTagBoxes(output, 0, output.length, 0);
  return output;
}
