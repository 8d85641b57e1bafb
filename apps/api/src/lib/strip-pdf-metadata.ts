import {
  ParseSpeeds,
  PDFArray,
  PDFDict,
  PDFDocument,
  PDFName,
  PDFNumber,
  type PDFObject,
  PDFRef,
  PDFStream,
} from '@cantoo/pdf-lib';
import { unremovable } from './metadata-outcome.ts';

/**
 * Removes the document metadata of a PDF, with @cantoo/pdf-lib (the maintained fork of pdf-lib). Word's and
 * 한글's "save as PDF" copy the account name into the Info dictionary's /Author and into an XMP packet, and
 * the title is often the source file's name ("Microsoft Word - 김OO_진술서.docx"). The whole Info
 * dictionary goes, every XMP packet, applications' private data (/PieceInfo) and the author (/T) of
 * comments and highlights; the file is then written anew from the objects its pages still use, so an
 * earlier revision's Info dictionary, left behind by an incremental save, does not survive either.
 */

const METADATA = PDFName.of('Metadata');
const TYPE = PDFName.of('Type');
const SUBTYPE = PDFName.of('Subtype');
const INFO_KEYS_ELSEWHERE = [METADATA, PDFName.of('PieceInfo')];
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
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dictionary = dictionaryOf(object);
    if (!dictionary) continue;
    // XMP packets (the catalog's, and those of images or pages) repeat the author as dc:creator.
    if (object instanceof PDFStream && dictionary.get(TYPE) === METADATA) {
      context.delete(ref);
      continue;
    }
    for (const key of INFO_KEYS_ELSEWHERE) dictionary.delete(key);
    const subtype = dictionary.get(SUBTYPE);
    if (subtype instanceof PDFName && MARKUP_ANNOTATIONS.has(subtype)) dictionary.delete(ANNOTATION_AUTHOR);
  }
  // Only what the document still uses is written: an orphaned Info dictionary or XMP packet of an earlier
  // revision would otherwise be copied into the new file.
  const reachable = reachableFromCatalog(document, root);
  for (const [ref] of context.enumerateIndirectObjects()) if (!reachable.has(ref)) context.delete(ref);
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
