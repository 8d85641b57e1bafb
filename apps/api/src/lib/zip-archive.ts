import { crc32, deflateRawSync, inflateRawSync } from 'node:zlib';

/**
 * Just enough ZIP to replace a few small entries of an Office or HWPX package and copy every other entry's
 * bytes verbatim. Decompressing only the entries we change keeps a 50 MB upload from inflating into
 * gigabytes (a zip bomb would otherwise cost the server its memory) and leaves the evidence itself — the
 * document body, the embedded photos — byte for byte as the reporter uploaded it.
 */

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_OF_CENTRAL_DIRECTORY = 0x06064b50;
const ZIP64_EXTRA_FIELD = 0x0001;
const UINT16_MAX = 0xffff;
const UINT32_MAX = 0xffffffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_DATA_DESCRIPTOR = 0x0008;
const FLAG_UTF8_NAME = 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATED = 8;
/** A data descriptor is at most a signature, a CRC and two 64-bit sizes. */
const MAX_DATA_DESCRIPTOR_BYTES = 24;
/** An XML part larger than this is refused rather than inflated into memory. */
const MAX_READ_ENTRY_BYTES = 64 * 1024 * 1024;
/**
 * What all the entries read from one package may inflate to, together: at most MAX_INFLATED_BYTES, and at
 * most MAX_INFLATE_RATIO times the package's own size (never less than MIN_INFLATED_BUDGET, for small
 * documents). Office XML compresses about ten to one and pictures hardly at all, while a package built to
 * stall the worker (585 KB of deflated XML inflating to 240 MB) compresses hundreds to one: it is refused
 * (`unremovable`) after a few megabytes of work instead of minutes.
 */
export const MAX_INFLATED_BYTES = 64 * 1024 * 1024;
export const MAX_INFLATE_RATIO = 32;
export const MIN_INFLATED_BUDGET = 16 * 1024 * 1024;
/** Bytes each package read by `readZip` may still inflate, keyed by the package's buffer. */
const inflateBudgets = new WeakMap<Buffer, number>();

export function inflateBudget(packageBytes: number): number {
  return Math.min(MAX_INFLATED_BYTES, Math.max(MIN_INFLATED_BUDGET, MAX_INFLATE_RATIO * packageBytes));
}
/**
 * Office and 한글 packages hold tens to a few thousand parts. Without a cap, 65,535 empty entries (a few
 * megabytes of central directory) cost tens of megabytes of heap before a single byte is inflated.
 */
export const MAX_ZIP_ENTRIES = 10_000;

export interface ZipEntry {
  name: string;
  versionMadeBy: number;
  versionNeeded: number;
  flags: number;
  method: number;
  time: number;
  date: number;
  crc: number;
  compressedSize: number;
  size: number;
  internalAttributes: number;
  externalAttributes: number;
  localOffset: number;
  nameBytes: Buffer;
  /** The central extra field without its ZIP64 record: the rewritten archive never needs 64-bit sizes. */
  extra: Buffer;
  comment: Buffer;
  dataOffset: number;
  /** Where the local header, data and any data descriptor end: the bytes copied for a kept entry. */
  end: number;
}

export interface ZipArchive {
  entries: ZipEntry[];
  comment: Buffer;
}

function fail(reason: string): never {
  throw new Error(`zip: ${reason}`);
}

function readUInt64(input: Buffer, offset: number): number {
  const value = input.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) fail('64-bit value out of range');
  return Number(value);
}

function findEndOfCentralDirectory(input: Buffer): number {
  const lowest = Math.max(0, input.length - 22 - UINT16_MAX);
  for (let offset = input.length - 22; offset >= lowest; offset -= 1) {
    if (
      input.readUInt32LE(offset) === END_OF_CENTRAL_DIRECTORY &&
      offset + 22 + input.readUInt16LE(offset + 20) <= input.length
    ) {
      return offset;
    }
  }
  return fail('no end of central directory');
}

function withoutZip64Field(extra: Buffer): Buffer {
  const kept: Buffer[] = [];
  let offset = 0;
  while (offset + 4 <= extra.length) {
    const id = extra.readUInt16LE(offset);
    const end = offset + 4 + extra.readUInt16LE(offset + 2);
    if (end > extra.length) break;
    if (id !== ZIP64_EXTRA_FIELD) kept.push(extra.subarray(offset, end));
    offset = end;
  }
  return Buffer.concat(kept);
}

function zip64Values(extra: Buffer): Buffer | undefined {
  let offset = 0;
  while (offset + 4 <= extra.length) {
    const length = extra.readUInt16LE(offset + 2);
    if (extra.readUInt16LE(offset) === ZIP64_EXTRA_FIELD)
      return extra.subarray(offset + 4, offset + 4 + length);
    offset += 4 + length;
  }
  return undefined;
}

export function readZip(input: Buffer): ZipArchive {
  if (input.length < 22) fail('too short');
  const eocd = findEndOfCentralDirectory(input);
  if (input.readUInt16LE(eocd + 4) !== 0 || input.readUInt16LE(eocd + 6) !== 0) fail('multi-disk archive');
  let count = input.readUInt16LE(eocd + 10);
  let directoryOffset = input.readUInt32LE(eocd + 16);
  const comment = input.subarray(eocd + 22, eocd + 22 + input.readUInt16LE(eocd + 20));
  if (eocd >= 20 && input.readUInt32LE(eocd - 20) === ZIP64_END_LOCATOR) {
    const zip64End = readUInt64(input, eocd - 12);
    if (zip64End + 56 > input.length || input.readUInt32LE(zip64End) !== ZIP64_END_OF_CENTRAL_DIRECTORY)
      fail('bad ZIP64 end of central directory');
    count = readUInt64(input, zip64End + 32);
    directoryOffset = readUInt64(input, zip64End + 48);
  }
  if (count > MAX_ZIP_ENTRIES) fail(`more than ${MAX_ZIP_ENTRIES} entries`);

  const entries: ZipEntry[] = [];
  let offset = directoryOffset;
  for (let index = 0; index < count; index += 1) {
    if (offset + 46 > input.length || input.readUInt32LE(offset) !== CENTRAL_HEADER)
      fail('bad central directory');
    const flags = input.readUInt16LE(offset + 8);
    const nameLength = input.readUInt16LE(offset + 28);
    const extraLength = input.readUInt16LE(offset + 30);
    const commentLength = input.readUInt16LE(offset + 32);
    const nameBytes = input.subarray(offset + 46, offset + 46 + nameLength);
    const rawExtra = input.subarray(offset + 46 + nameLength, offset + 46 + nameLength + extraLength);
    let size = input.readUInt32LE(offset + 24);
    let compressedSize = input.readUInt32LE(offset + 20);
    let localOffset = input.readUInt32LE(offset + 42);
    if (input.readUInt16LE(offset + 34) !== 0) fail('multi-disk archive');
    const zip64 = zip64Values(rawExtra);
    let cursor = 0;
    const next64 = () => {
      if (!zip64 || cursor + 8 > zip64.length) fail('missing ZIP64 field');
      const value = readUInt64(zip64, cursor);
      cursor += 8;
      return value;
    };
    if (size === UINT32_MAX) size = next64();
    if (compressedSize === UINT32_MAX) compressedSize = next64();
    if (localOffset === UINT32_MAX) localOffset = next64();
    const end = offset + 46 + nameLength + extraLength + commentLength;
    if (end > input.length) fail('central directory past the end');
    entries.push({
      name: nameBytes.toString(flags & FLAG_UTF8_NAME ? 'utf8' : 'latin1'),
      versionMadeBy: input.readUInt16LE(offset + 4),
      versionNeeded: input.readUInt16LE(offset + 6),
      flags,
      method: input.readUInt16LE(offset + 10),
      time: input.readUInt16LE(offset + 12),
      date: input.readUInt16LE(offset + 14),
      crc: input.readUInt32LE(offset + 16),
      compressedSize,
      size,
      internalAttributes: input.readUInt16LE(offset + 36),
      externalAttributes: input.readUInt32LE(offset + 38),
      localOffset,
      nameBytes,
      extra: withoutZip64Field(rawExtra),
      comment: input.subarray(offset + 46 + nameLength + extraLength, end),
      dataOffset: 0,
      end: 0,
    });
    offset = end;
  }

  // Entries are laid out one after another; one that runs into the next (overlapping entries are a zip
  // bomb technique) or past the central directory makes the archive unreadable for our purpose.
  const byOffset = [...entries].sort((a, b) => a.localOffset - b.localOffset);
  byOffset.forEach((entry, index) => {
    const limit = byOffset[index + 1]?.localOffset ?? directoryOffset;
    if (entry.localOffset + 30 > limit || input.readUInt32LE(entry.localOffset) !== LOCAL_HEADER)
      fail('bad local header');
    entry.dataOffset =
      entry.localOffset +
      30 +
      input.readUInt16LE(entry.localOffset + 26) +
      input.readUInt16LE(entry.localOffset + 28);
    const dataEnd = entry.dataOffset + entry.compressedSize;
    if (dataEnd > limit) fail('entry overlaps the next one');
    entry.end =
      entry.flags & FLAG_DATA_DESCRIPTOR ? Math.min(limit, dataEnd + MAX_DATA_DESCRIPTOR_BYTES) : dataEnd;
  });
  inflateBudgets.set(input, inflateBudget(input.length));
  return { entries, comment };
}

/** The uncompressed content of one (small) entry, checked against its CRC. */
export function readZipEntry(input: Buffer, entry: ZipEntry): Buffer {
  if (entry.flags & FLAG_ENCRYPTED) fail(`${entry.name} is encrypted`);
  if (entry.size > MAX_READ_ENTRY_BYTES) fail(`${entry.name} is too large`);
  const budget = inflateBudgets.get(input) ?? inflateBudget(input.length);
  if (entry.size > budget) fail('the package inflates past its cap');
  inflateBudgets.set(input, budget - entry.size);
  const data = input.subarray(entry.dataOffset, entry.dataOffset + entry.compressedSize);
  let content: Buffer;
  if (entry.method === METHOD_STORED) content = data;
  else if (entry.method === METHOD_DEFLATED)
    // Never more than the entry says: a larger output fails its size check below anyway.
    content = inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  else return fail(`${entry.name} uses compression method ${entry.method}`);
  if (content.length !== entry.size || crc32(content) >>> 0 !== entry.crc)
    fail(`${entry.name} fails its CRC check`);
  return content;
}

/** What the rewritten archive records for an entry, in both its local and central headers. */
interface WrittenFields {
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  offset: number;
}

function localHeader(entry: ZipEntry, fields: WrittenFields): Buffer {
  const header = Buffer.alloc(30);
  header.writeUInt32LE(LOCAL_HEADER, 0);
  header.writeUInt16LE(entry.versionNeeded, 4);
  header.writeUInt16LE(fields.flags, 6);
  header.writeUInt16LE(fields.method, 8);
  header.writeUInt16LE(entry.time, 10);
  header.writeUInt16LE(entry.date, 12);
  header.writeUInt32LE(fields.crc, 14);
  header.writeUInt32LE(fields.compressedSize, 18);
  header.writeUInt32LE(fields.size, 22);
  header.writeUInt16LE(entry.nameBytes.length, 26);
  header.writeUInt16LE(0, 28);
  return Buffer.concat([header, entry.nameBytes]);
}

function centralHeader(entry: ZipEntry, fields: WrittenFields): Buffer {
  const header = Buffer.alloc(46);
  header.writeUInt32LE(CENTRAL_HEADER, 0);
  header.writeUInt16LE(entry.versionMadeBy, 4);
  header.writeUInt16LE(entry.versionNeeded, 6);
  header.writeUInt16LE(fields.flags, 8);
  header.writeUInt16LE(fields.method, 10);
  header.writeUInt16LE(entry.time, 12);
  header.writeUInt16LE(entry.date, 14);
  header.writeUInt32LE(fields.crc, 16);
  header.writeUInt32LE(fields.compressedSize, 20);
  header.writeUInt32LE(fields.size, 24);
  header.writeUInt16LE(entry.nameBytes.length, 28);
  // No extra fields and no comment: a packer's records and an entry comment can carry anything.
  header.writeUInt16LE(0, 30);
  header.writeUInt16LE(0, 32);
  header.writeUInt16LE(0, 34);
  header.writeUInt16LE(entry.internalAttributes, 36);
  header.writeUInt32LE(entry.externalAttributes, 38);
  header.writeUInt32LE(fields.offset, 42);
  return Buffer.concat([header, entry.nameBytes]);
}

/**
 * The archive with the given entries' contents replaced. Every other entry keeps its compressed bytes,
 * every header is written anew without extra fields or comments, and all entries keep their order, so a package whose first entry must be a stored
 * `mimetype` (HWPX, like EPUB) still starts with it.
 */
export function replaceZipEntries(
  input: Buffer,
  archive: ZipArchive,
  replacements: Map<ZipEntry, Buffer>,
): Buffer {
  const parts: Buffer[] = [];
  const written = new Map<ZipEntry, WrittenFields>();
  let position = 0;
  for (const entry of [...archive.entries].sort((a, b) => a.localOffset - b.localOffset)) {
    const content = replacements.get(entry);
    let fields: WrittenFields;
    let chunks: Buffer[];
    if (content) {
      const method = entry.method === METHOD_STORED ? METHOD_STORED : METHOD_DEFLATED;
      const data = method === METHOD_STORED ? content : deflateRawSync(content);
      fields = {
        flags: entry.flags & ~(FLAG_DATA_DESCRIPTOR | FLAG_ENCRYPTED),
        method,
        crc: crc32(content) >>> 0,
        compressedSize: data.length,
        size: content.length,
        offset: position,
      };
      chunks = [localHeader(entry, fields), data];
    } else {
      // Kept entries keep their compressed bytes, under a header written anew: the local extra fields
      // (a packer's own records) and any data descriptor do not carry over.
      const { method, crc, compressedSize, size } = entry;
      fields = {
        flags: entry.flags & ~FLAG_DATA_DESCRIPTOR,
        method,
        crc,
        compressedSize,
        size,
        offset: position,
      };
      chunks = [
        localHeader(entry, fields),
        input.subarray(entry.dataOffset, entry.dataOffset + compressedSize),
      ];
    }
    for (const chunk of chunks) {
      parts.push(chunk);
      position += chunk.length;
    }
    written.set(entry, fields);
  }
  const directoryOffset = position;
  const directory = Buffer.concat(archive.entries.map((entry) => centralHeader(entry, written.get(entry)!)));
  if (directoryOffset + directory.length > UINT32_MAX || archive.entries.length > UINT16_MAX)
    fail('too large to rewrite without ZIP64');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(archive.entries.length, 8);
  end.writeUInt16LE(archive.entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(directoryOffset, 16);
  // The archive comment (free text a packer or a person may have written) is not carried over.
  end.writeUInt16LE(0, 20);
  return Buffer.concat([...parts, directory, end]);
}
