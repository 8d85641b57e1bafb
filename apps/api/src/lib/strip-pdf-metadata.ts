import { PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, PDFStream } from 'pdf-lib';

/**
 * Removes the author fields of a PDF. Word's and 한글's "save as PDF" copy the account name into the Info
 * dictionary's /Author and into an XMP packet, and /Creator and /Producer name the software and sometimes
 * the licensee; a manager opening an anonymous reporter's evidence would read the reporter's name there.
 */

const PERSON_INFO_KEYS = [PDFName.of('Author'), PDFName.of('Creator'), PDFName.of('Producer')];
const METADATA = PDFName.of('Metadata');
const TYPE = PDFName.of('Type');

function dictionaryOf(object: unknown): PDFDict | undefined {
  if (object instanceof PDFDict) return object;
  if (object instanceof PDFStream) return object.dict;
  return undefined;
}

/**
 * A signed PDF is kept as uploaded: rewriting it breaks the signature, which is what makes a signed notice
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

/** Throws on a PDF it cannot read (corrupt, encrypted); the caller then keeps the upload as it is. */
export async function stripPdfMetadata(input: Buffer): Promise<Buffer> {
  // Strict parsing: pdf-lib otherwise skips objects it cannot read and would write a PDF without them,
  // losing evidence. An encrypted PDF throws here too, as its strings cannot be edited without the key.
  const document = await PDFDocument.load(input, { updateMetadata: false, throwOnInvalidObject: true });
  if (!(document.catalog instanceof PDFDict)) throw new Error('pdf: no catalog');
  if (isSigned(document)) return input;
  const { context } = document;
  let isChanged = false;
  const dictionaries: PDFDict[] = [];
  const trailerInfo = context.lookup(context.trailerInfo.Info);
  if (trailerInfo instanceof PDFDict) dictionaries.push(trailerInfo);
  for (const [ref, object] of context.enumerateIndirectObjects()) {
    const dictionary = dictionaryOf(object);
    if (!dictionary) continue;
    // XMP packets (the catalog's, and those of images or pages) repeat the author as dc:creator.
    if (object instanceof PDFStream && dictionary.get(TYPE) === METADATA) {
      context.delete(ref);
      isChanged = true;
    } else {
      dictionaries.push(dictionary);
    }
  }
  // Every dictionary, not only the trailer's Info: an incremental save can leave an earlier Info
  // dictionary behind unreferenced, and pdf-lib writes out every object it has read.
  for (const dictionary of dictionaries) {
    const metadata = dictionary.get(METADATA);
    // The packet a /Metadata key points to goes too, whatever its /Type says: pdf-lib would otherwise
    // write it out as an orphan object, author and all.
    if (metadata instanceof PDFRef) context.delete(metadata);
    for (const key of [...PERSON_INFO_KEYS, METADATA]) {
      if (dictionary.delete(key)) isChanged = true;
    }
  }
  if (!isChanged) return input;
  const output = await document.save({
    // Object streams only where the upload had them: written without, a compressed PDF grows by up to a
    // third, and an old one is kept free of a structure its readers may not know.
    useObjectStreams: input.includes('/ObjStm'),
    addDefaultPage: false,
    updateFieldAppearances: false,
  });
  return Buffer.from(output.buffer, output.byteOffset, output.byteLength);
}
