import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { inflateSync, unzipSync as zlibUnzip } from 'node:zlib';
import { unzipSync } from 'fflate';

/**
 * An independent scanner for the evidence corpus: it shares no code with the cleaner. It looks for the
 * sentinels in a file's bytes, then opens every container it recognises and looks again, recursively:
 * ZIP entries (fflate, not our ZIP reader), PDF streams (every `stream … endstream`, inflated with zlib
 * when it can be), and the metadata of every embedded image, audio or video part as Debian's exiftool
 * reads it (`-a -u -G1 -b`: duplicates, unknown tags, binary values). A finding names where it was.
 */

const run = promisify(execFile);

/** Every encoding a sentinel may take: UTF-8, UTF-16 either way, hex (PDF strings). */
function needlesOf(text: string): Buffer[] {
  const utf16be = Buffer.from(text, 'utf16le').swap16();
  return [
    Buffer.from(text),
    Buffer.from(text, 'utf16le'),
    utf16be,
    Buffer.from(Buffer.from(text).toString('hex')),
    Buffer.from(Buffer.from(text).toString('hex').toUpperCase()),
    Buffer.from(utf16be.toString('hex')),
    Buffer.from(utf16be.toString('hex').toUpperCase()),
  ];
}

const MAX_DEPTH = 6;
const MAX_INFLATED = 64 * 1024 * 1024;

function isZip(bytes: Buffer): boolean {
  return bytes.length > 4 && bytes.readUInt32LE(0) === 0x04034b50;
}

function isPdf(bytes: Buffer): boolean {
  return bytes.subarray(0, 1024).includes('%PDF-');
}

/** Whether exiftool can say something about it: images, audio, video, PDF. */
function isMedia(bytes: Buffer): boolean {
  const head = bytes.subarray(0, 12);
  return (
    (head[0] === 0xff && head[1] === 0xd8) ||
    head.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])) ||
    head.subarray(0, 3).toString('latin1') === 'GIF' ||
    head.subarray(0, 4).toString('latin1') === 'RIFF' ||
    head.subarray(4, 8).toString('latin1') === 'ftyp' ||
    head.subarray(0, 3).toString('latin1') === 'ID3' ||
    head.subarray(0, 4).toString('latin1') === 'II*\0' ||
    head.subarray(0, 4).toString('latin1') === 'MM\0*' ||
    isPdf(bytes)
  );
}

/** The raw contents of every `stream … endstream` in a PDF, in one pass. */
function pdfStreams(bytes: Buffer): Buffer[] {
  const streams: Buffer[] = [];
  let at = 0;
  for (;;) {
    const start = bytes.indexOf('stream', at, 'latin1');
    if (start < 0) return streams;
    if (bytes.subarray(Math.max(0, start - 3), start).toString('latin1') === 'end') {
      at = start + 6;
      continue;
    }
    let from = start + 6;
    if (bytes[from] === 0x0d) from += 1;
    if (bytes[from] === 0x0a) from += 1;
    const end = bytes.indexOf('endstream', from, 'latin1');
    if (end < 0) return streams;
    streams.push(bytes.subarray(from, end));
    at = end + 9;
  }
}

function tryInflate(bytes: Buffer): Buffer | undefined {
  try {
    return inflateSync(bytes, { maxOutputLength: MAX_INFLATED });
  } catch {
    try {
      return zlibUnzip(bytes, { maxOutputLength: MAX_INFLATED });
    } catch {
      return undefined;
    }
  }
}

interface Part {
  where: string;
  bytes: Buffer;
}

/** The file and every part nested in it that this scanner can open. */
function partsOf(bytes: Buffer, where: string, depth = 0): Part[] {
  const parts: Part[] = [{ where, bytes }];
  if (depth >= MAX_DEPTH) return parts;
  if (isZip(bytes)) {
    let entries: Record<string, Uint8Array> = {};
    try {
      entries = unzipSync(bytes);
    } catch {
      // Unreadable here: its raw bytes were searched all the same.
    }
    for (const [name, content] of Object.entries(entries))
      parts.push(...partsOf(Buffer.from(content), `${where} > ${name}`, depth + 1));
  }
  if (isPdf(bytes)) {
    pdfStreams(bytes).forEach((stream, index) => {
      const inflated = tryInflate(stream);
      parts.push(...partsOf(stream, `${where} > stream ${index}`, depth + 1));
      if (inflated) parts.push(...partsOf(inflated, `${where} > stream ${index} (inflated)`, depth + 1));
    });
  }
  return parts;
}

/** The exiftool reading of every media part, as text, each labelled with its part. */
async function exiftoolReadings(parts: Part[]): Promise<Part[]> {
  const media = parts.filter((part) => isMedia(part.bytes));
  if (media.length === 0) return [];
  const folder = await fs.mkdtemp(path.join(os.tmpdir(), 'ansim-corpus-'));
  try {
    const files = await Promise.all(
      media.map(async (part, index) => {
        const file = path.join(folder, `part-${index}`);
        await fs.writeFile(file, part.bytes);
        return file;
      }),
    );
    // -b prints binary values (a maker note, an embedded thumbnail) base64-encoded inside the JSON.
    const { stdout } = await run('/usr/bin/exiftool', ['-j', '-a', '-u', '-G1', '-b', '-ee', ...files], {
      maxBuffer: 256 * 1024 * 1024,
    }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '[]' }));
    const readings = JSON.parse(stdout || '[]') as Array<Record<string, unknown>>;
    return readings.map((reading) => {
      const index = Number(String(reading.SourceFile).split('part-').pop());
      const values = Object.entries(reading)
        .filter(([name]) => name !== 'SourceFile')
        .map(([name, value]) => {
          const text = String(value);
          const decoded = text.startsWith('base64:')
            ? Buffer.from(text.slice(7), 'base64').toString('latin1')
            : text;
          return `${name}=${decoded}`;
        });
      return { where: `${media[index]?.where} (exiftool)`, bytes: Buffer.from(values.join('\n')) };
    });
  } finally {
    await fs.rm(folder, { recursive: true, force: true });
  }
}

export interface Finding {
  where: string;
  sentinel: string;
}

/** Where any of `sentinels` appears in the file, its nested parts, or their exiftool readings. */
export async function scanForSentinels(
  bytes: Buffer,
  sentinels: string[],
  { useExiftool = true } = {},
): Promise<Finding[]> {
  const parts = partsOf(bytes, 'file');
  const readings = useExiftool ? await exiftoolReadings(parts) : [];
  const findings: Finding[] = [];
  for (const sentinel of sentinels) {
    const needles = needlesOf(sentinel);
    for (const part of [...parts, ...readings]) {
      if (needles.some((needle) => part.bytes.includes(needle)))
        findings.push({ where: part.where, sentinel });
    }
  }
  return findings;
}
