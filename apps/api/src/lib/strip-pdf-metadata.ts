import { inflateSync } from 'node:zlib';
import {
  ParseSpeeds,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRawStream,
  PDFRef,
  PDFStream,
} from '@cantoo/pdf-lib';
import { unremovable } from './metadata-outcome.ts';
import { stripJpegMetadata } from './strip-image-metadata.ts';

/**
 * Removes the document metadata of a PDF, with @cantoo/pdf-lib (the maintained fork of pdf-lib). Word's and
 * 한글's "save as PDF" copy the account name into the Info dictionary's /Author and into an XMP packet, and
 * the title is often the source file's name ("Microsoft Word - 김OO_진술서.docx"). The whole Info
 * dictionary goes, every XMP packet, applications' private data (/PieceInfo) and the author (/T) of
 * comments and highlights; the file is then written anew from the objects its pages still use, so an
 * earlier revision's Info dictionary, left behind by an incremental save, does not survive either.
 *
 * Nested content goes the same way: a scan app's or img2pdf's page is a phone photo kept whole as a JPEG
 * image stream, so every JPEG image is cleaned like an uploaded one (APP1–APP15 and COM segments);
 * attached files (`/EmbeddedFiles`, file-attachment annotations, associated files), scripts and automatic
 * actions (`/JavaScript`, `/OpenAction`, `/AA`, launch and submit actions) are dropped; and a stream the
 * cleaner does not understand (a JPEG 2000 image, whose boxes can hold XML, or a stream of a type it does
 * not know) makes the file `unremovable` instead of being written through.
 */

const METADATA = PDFName.of('Metadata');
const TYPE = PDFName.of('Type');
const SUBTYPE = PDFName.of('Subtype');
const ANNOTATION_AUTHOR = PDFName.of('T');
/** Markup annotations, whose /T is their author; a form field's /T is its name and stays. */
const MARKUP_ANNOTATIONS = new Set(
  [
    'Text',
    'FreeText',
    'Line',
    'Square',
    'Circle',
    'Polygon',
    'PolyLine',
    'Highlight',
    'Underline',
    'Squiggly',
    'StrikeOut',
    'Stamp',
    'Caret',
    'Ink',
    'FileAttachment',
    'Sound',
    'Redact',
  ].map((name) => PDFName.of(name)),
);

const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');
const ANNOTS = PDFName.of('Annots');
const ACTION = PDFName.of('A');
const ACTION_TYPE = PDFName.of('S');
const IMAGE = PDFName.of('Image');
const DCT = PDFName.of('DCTDecode');
const FLATE = PDFName.of('FlateDecode');
/** Keys removed from every dictionary: automatic actions, associated and embedded files, XMP, app data. */
const KEYS_REMOVED_EVERYWHERE = [
  METADATA,
  PDFName.of('PieceInfo'),
  PDFName.of('AA'),
  PDFName.of('AF'),
  PDFName.of('EF'),
  PDFName.of('RF'),
];
/** Keys removed from the catalog: the actions on opening, portfolios, and where the file came from. */
const CATALOG_KEYS_REMOVED = ['OpenAction', 'Collection', 'SpiderInfo', 'URI', 'Threads'].map((name) =>
  PDFName.of(name),
);
/** Name trees of the catalog's /Names that hold files and scripts. */
const NAME_TREES_REMOVED = ['EmbeddedFiles', 'JavaScript', 'AlternatePresentations'].map((name) =>
  PDFName.of(name),
);
/** Annotations that carry a file, a sound or a movie, or run something: removed from their page. */
const CARRYING_ANNOTATIONS = new Set(
  ['FileAttachment', 'Sound', 'Movie', 'Screen', 'RichMedia', '3D'].map((name) => PDFName.of(name)),
);
/** Actions that run a script, start a program, reach another file or send the form: removed. */
const ACTIVE_ACTIONS = new Set(
  ['JavaScript', 'Launch', 'GoToE', 'GoToR', 'ImportData', 'SubmitForm', 'Rendition', 'Sound', 'Movie'].map(
    (name) => PDFName.of(name),
  ),
);
/** Image filters whose data is pixels alone (no place for metadata); JPEG is cleaned; others refused. */
const PIXEL_FILTERS = new Set(
  [
    'FlateDecode',
    'LZWDecode',
    'RunLengthDecode',
    'ASCIIHexDecode',
    'ASCII85Decode',
    'CCITTFaxDecode',
    'JBIG2Decode',
    'Fl',
    'LZW',
    'RL',
    'AHx',
    'A85',
    'CCF',
  ].map((name) => PDFName.of(name)),
);
/** Stream types the cleaner understands; a stream of another /Type is not written through. */
const KNOWN_STREAM_TYPES = new Set(
  ['XObject', 'XRef', 'ObjStm', 'Pattern', 'CMap', 'EmbeddedFile', 'Metadata'].map((name) =>
    PDFName.of(name),
  ),
);

function filtersOf(dictionary: PDFDict): PDFName[] {
  const filter = dictionary.lookup(FILTER);
  if (filter === undefined) return [];
  if (filter instanceof PDFName) return [filter];
  if (filter instanceof PDFArray) {
    return filter.asArray().map((item) => {
      const resolved = dictionary.context.lookup(item);
      if (!(resolved instanceof PDFName)) unremovable('pdf: filter is not a name');
      return resolved;
    });
  }
  return unremovable('pdf: filter is not a name');
}

/**
 * The image stream with its JPEG cleaned, or the same stream when its data is pixels alone. A JPEG under
 * a Flate filter (some PDF writers compress it once more) is inflated, cleaned and stored without it.
 */
function cleanImage(stream: PDFStream): PDFStream {
  const filters = filtersOf(stream.dict);
  if (!filters.includes(DCT)) {
    if (filters.every((filter) => PIXEL_FILTERS.has(filter))) return stream;
    return unremovable('pdf: image filter not understood');
  }
  if (!(stream instanceof PDFRawStream)) unremovable('pdf: image stream not raw');
  let jpeg: Buffer;
  if (filters.length === 1) {
    jpeg = Buffer.from(stream.contents);
  } else if (filters.length === 2 && filters[0] === FLATE && filters[1] === DCT) {
    if (stream.dict.has(DECODE_PARMS)) {
      const parms = stream.dict.lookup(DECODE_PARMS);
      const first = parms instanceof PDFArray ? stream.dict.context.lookup(parms.get(0)) : parms;
      if (first instanceof PDFDict && first.has(PDFName.of('Predictor')))
        unremovable('pdf: predictor on a JPEG');
    }
    jpeg = inflateSync(stream.contents, { maxOutputLength: 256 * 1024 * 1024 });
  } else {
    return unremovable('pdf: JPEG under filters not understood');
  }
  const cleaned = stripJpegMetadata(jpeg);
  const dict = stream.dict.clone(stream.dict.context);
  dict.set(FILTER, DCT);
  if (filters.length === 2) dict.delete(DECODE_PARMS);
  return PDFRawStream.of(dict, cleaned);
}

/** The annotations array without those that carry a file, a sound, a movie or run something. */
function withoutCarryingAnnotations(dictionary: PDFDict): void {
  const annotations = dictionary.lookup(ANNOTS);
  if (!(annotations instanceof PDFArray)) return;
  const kept = annotations.asArray().filter((item) => {
    const annotation = dictionaryOf(dictionary.context.lookup(item));
    const subtype = annotation?.lookup(SUBTYPE);
    return !(subtype instanceof PDFName && CARRYING_ANNOTATIONS.has(subtype));
  });
  if (kept.length !== annotations.size()) dictionary.set(ANNOTS, dictionary.context.obj(kept));
}

/** Removes an /A or /Next action that runs a script, a program or reaches another file. */
function withoutActiveActions(dictionary: PDFDict): void {
  for (const key of [ACTION, PDFName.of('Next')]) {
    const action = dictionaryOf(dictionary.context.lookup(dictionary.get(key)));
    const type = action?.lookup(ACTION_TYPE);
    if (type instanceof PDFName && ACTIVE_ACTIONS.has(type)) dictionary.delete(key);
  }
  const type = dictionary.get(ACTION_TYPE);
  if (type instanceof PDFName && ACTIVE_ACTIONS.has(type)) {
    for (const key of ['JS', 'F', 'Win', 'Mac', 'Unix', 'D'].map((name) => PDFName.of(name)))
      dictionary.delete(key);
  }
}

/** The dictionary and every dictionary written directly inside it (not through a reference). */
function dictionariesWithin(dictionary: PDFDict): PDFDict[] {
  const found: PDFDict[] = [];
  const pending: PDFObject[] = [dictionary];
  while (pending.length > 0) {
    const object = pending.pop();
    if (object instanceof PDFDict) {
      found.push(object);
      for (const [, value] of object.entries()) pending.push(value);
    } else if (object instanceof PDFArray) {
      pending.push(...object.asArray());
    }
  }
  return found;
}

function dictionaryOf(object: unknown): PDFDict | undefined {
  if (object instanceof PDFDict) return object;
  if (object instanceof PDFStream) return object.dict;
  return undefined;
}

/**
 * A signed PDF cannot be cleaned: rewriting it breaks the signature, which is what makes a signed notice
 * or contract strong evidence, and the signer's name is in the signature's certificate in any case.
 */
function isSigned(document: PDFDocument): boolean {
  const { catalog, context } = document;
  if (catalog.has(PDFName.of('Perms'))) return true;
  const acroForm = catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  const signatureFlags = acroForm?.lookupMaybe(PDFName.of('SigFlags'), PDFNumber)?.asNumber() ?? 0;
  if (signatureFlags & 1) return true;
  return context
    .enumerateIndirectObjects()
    .some(([, object]) => dictionaryOf(object)?.has(PDFName.of('ByteRange')) ?? false);
}

/** The objects reachable from the catalog, visited once each. */
function reachableFromCatalog(document: PDFDocument, root: PDFRef): Set<PDFRef> {
  const { context } = document;
  const reached = new Set<PDFRef>([root]);
  const pending: PDFObject[] = [context.lookup(root)!];
  while (pending.length > 0) {
    const object = pending.pop();
    const children =
      object instanceof PDFArray
        ? object.asArray()
        : (dictionaryOf(object)
            ?.entries()
            .map(([, value]) => value) ?? []);
    for (const child of children) {
      if (child instanceof PDFRef) {
        if (reached.has(child)) continue;
        reached.add(child);
        const target = context.lookup(child);
        if (target) pending.push(target);
      } else if (child instanceof PDFArray || child instanceof PDFDict) {
        pending.push(child);
      }
    }
  }
  return reached;
}

/** Throws (outcome `unremovable`) on a PDF it cannot read (damaged, encrypted) or must not edit (signed). */
export async function stripPdfMetadata(input: Buffer): Promise<Buffer> {
  // Strict parsing: the library otherwise skips objects it cannot read and would write a PDF without them,
  // losing evidence. An encrypted PDF throws here too, as its strings cannot be edited without the key.
  const document = await PDFDocument.load(input, {
    updateMetadata: false,
    throwOnInvalidObject: true,
    parseSpeed: ParseSpeeds.Fastest,
  });
  if (!(document.catalog instanceof PDFDict)) unremovable('pdf: no catalog');
  if (isSigned(document)) unremovable('pdf: digitally signed');
  const { context } = document;
  const root = context.trailerInfo.Root;
  if (!(root instanceof PDFRef)) unremovable('pdf: no catalog reference');
  context.trailerInfo.Info = undefined;
  for (const key of CATALOG_KEYS_REMOVED) document.catalog.delete(key);
  const names = document.catalog.lookup(PDFName.of('Names'));
  if (names instanceof PDFDict) for (const key of NAME_TREES_REMOVED) names.delete(key);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dictionary = dictionaryOf(object);
    if (!dictionary) continue;
    const type = dictionary.get(TYPE);
    const subtype = dictionary.get(SUBTYPE);
    // XMP packets (the catalog's, and those of images or pages) repeat the author as dc:creator; an
    // attached file is a whole other document.
    if (
      object instanceof PDFStream &&
      (type === METADATA || type === PDFName.of('EmbeddedFile') || subtype === PDFName.of('XML'))
    ) {
      context.delete(ref);
      continue;
    }
    for (const nested of dictionariesWithin(dictionary)) {
      for (const key of KEYS_REMOVED_EVERYWHERE) nested.delete(key);
      const nestedSubtype = nested.get(SUBTYPE);
      if (nestedSubtype instanceof PDFName && MARKUP_ANNOTATIONS.has(nestedSubtype))
        nested.delete(ANNOTATION_AUTHOR);
      withoutCarryingAnnotations(nested);
      withoutActiveActions(nested);
    }
    if (object instanceof PDFStream && subtype === IMAGE) {
      const cleaned = cleanImage(object);
      if (cleaned !== object) context.assign(ref, cleaned);
    }
  }
  // Only what the document still uses is written: an orphaned Info dictionary or XMP packet of an earlier
  // revision would otherwise be copied into the new file.
  const reachable = reachableFromCatalog(document, root);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    if (!reachable.has(ref)) {
      context.delete(ref);
      continue;
    }
    // Fail closed: a stream the cleaner has not classified is not written through.
    if (object instanceof PDFStream) {
      const type = object.dict.get(TYPE);
      if (type instanceof PDFName && !KNOWN_STREAM_TYPES.has(type))
        unremovable(`pdf: stream of type ${type.asString()} not understood`);
    }
  }
  const output = await document.save({
    // Object streams only where the upload had them: written without, a compressed PDF grows by up to a
    // third, and an old one is kept free of a structure its readers may not know.
    useObjectStreams: input.includes('/ObjStm'),
    addDefaultPage: false,
    updateFieldAppearances: false,
    objectsPerTick: Number.POSITIVE_INFINITY,
  });
  return Buffer.from(output.buffer, output.byteOffset, output.byteLength);
}
