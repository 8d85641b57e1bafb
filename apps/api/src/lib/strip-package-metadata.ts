import { SaxesParser } from 'saxes';
import { unremovable } from './metadata-outcome.ts';
import {
  stripGifMetadata,
  stripJpegMetadata,
  stripPngMetadata,
  stripWebpMetadata,
} from './strip-image-metadata.ts';
import { readZip, readZipEntry, replaceZipEntries, type ZipEntry } from './zip-archive.ts';

/**
 * Removes the names in Office Open XML (docx, xlsx, pptx) and HWPX packages. Word, Excel, PowerPoint and
 * 한글 write the account name of whoever created and last saved a file into the package properties, and
 * every comment and tracked change carries its author's name and initials; a manager opening an anonymous
 * reporter's evidence would read the reporter's name there.
 *
 * Each XML part is read by a streaming XML parser (saxes) and edited by position: the values to empty are
 * cut out of the original text, so every other byte, namespace and attribute order stays as it was (한글
 * is known to refuse a package whose XML a serializer has rearranged). The parser and the edits take time
 * linear in the part's size, and malformed XML ends the work at its first error (outcome `unremovable`):
 * earlier regular expressions took time quadratic in the number of unclosed tags (finding F1).
 */

const CORE_PROPERTIES_TYPE = /\/metadata\/core-properties$/;
const EXTENDED_PROPERTIES_TYPE = /\/extended-properties$/;
const CUSTOM_PROPERTIES_TYPE = /\/custom-properties$/;

/** A custom-properties part with no properties: its relationship and content type stay valid. */
const EMPTY_CUSTOM_PROPERTIES = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n' +
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" ' +
    'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"/>',
);

/** Core properties kept: dates, revision number and language name no one. Title, author, keywords… go. */
const KEPT_CORE_PROPERTIES = new Set(['created', 'modified', 'revision', 'language', 'version']);
/** Extended properties that name a person, an organisation, or a folder (`C:\Users\<name>\…`). */
const EXTENDED_PERSON_PROPERTIES = new Set(['company', 'manager', 'hyperlinkbase', 'template']);
/** HWPX `content.hpf` elements (Dublin Core, OPF) that describe the document's author or subject. */
const HPF_PERSON_ELEMENTS = new Set([
  'title',
  'creator',
  'contributor',
  'publisher',
  'subject',
  'description',
]);
/** `opf:meta` names under which 한글 and other HWPX writers record a person or a summary. */
const HPF_PERSON_META = new Set([
  'creator',
  'lastsaveby',
  'author',
  'subject',
  'description',
  'keyword',
  'title',
]);
/**
 * Attributes that name a person on any element: `w:author`/`w:initials` of Word's comments and tracked
 * changes, `w15:author`/`w15:userId`/`w15:providerId` of word/people.xml, Excel's revision `userName`.
 */
const PERSON_ATTRIBUTES = new Set(['author', 'initials', 'userid', 'username', 'providerid']);
/** Attributes that name a person on particular elements only. */
const PERSON_ATTRIBUTES_OF: Record<string, Set<string>> = {
  cmauthor: new Set(['name']), // ppt/commentAuthors.xml
  author: new Set(['name']), // ppt/authors.xml (modern comments)
  person: new Set(['displayname']), // xl/persons/person.xml (threaded comments)
  trackchangeauthor: new Set(['name']), // HWPX Contents/header.xml
  abspath: new Set(['url']), // xl/workbook.xml: the folder it was last saved in
  imagedata: new Set(['href']), // VML: the path a linked picture was inserted from
};

/**
 * Fields that fetch or link another file when the document is opened or updated: a picture on the
 * sender's server (a read receipt), a text or a workbook by path. Their instructions are emptied, and the
 * last result Word stored stays as plain text. A HYPERLINK field to a local file or a share names a folder.
 */
const FETCHING_FIELD = /\b(INCLUDEPICTURE|INCLUDETEXT|LINK|IMPORT|DDE|DDEAUTO|RD)\b/i;
const HYPERLINK_FIELD = /\bHYPERLINK\b/i;
const LOCAL_TARGET = /(^|["\s])(file:|\\\\|[a-z]:\\)/i;

function isNeutralisedField(instruction: string): boolean {
  return (
    FETCHING_FIELD.test(instruction) || (HYPERLINK_FIELD.test(instruction) && LOCAL_TARGET.test(instruction))
  );
}

type PartRole = 'core' | 'extended' | 'hpf' | 'svg' | 'other';

function localName(qualified: string): string {
  return qualified.slice(qualified.indexOf(':') + 1).toLowerCase();
}

function attributeValue(attributes: Record<string, string>, local: string): string | undefined {
  for (const [name, value] of Object.entries(attributes)) if (localName(name) === local) return value;
  return undefined;
}

/**
 * What becomes of an element: the optional property elements of docProps are removed whole; elsewhere
 * the element stays, empty, where a reader may count on it (한글's `opf:meta` list, Excel's author
 * list, whose order comments refer to).
 */
function elementFate(
  role: PartRole,
  element: string,
  attributes: Record<string, string>,
  depth: number,
): 'remove' | 'empty' | undefined {
  if (element === 'author') return 'empty'; // Excel's legacy comments list their authors as text
  // SharePoint's person columns in customXml: display name, account id and login of a user.
  if (element === 'userinfo') return 'empty';
  // An SVG picture's <metadata> is RDF like XMP: its author, its source file.
  if (role === 'svg' && element === 'metadata') return 'empty';
  if (role === 'core') return depth === 1 && !KEPT_CORE_PROPERTIES.has(element) ? 'remove' : undefined;
  if (role === 'extended') return EXTENDED_PERSON_PROPERTIES.has(element) ? 'remove' : undefined;
  if (role === 'hpf') {
    if (HPF_PERSON_ELEMENTS.has(element)) return 'empty';
    const name = attributeValue(attributes, 'name')?.toLowerCase() ?? '';
    if (element === 'meta' && HPF_PERSON_META.has(name)) return 'empty';
  }
  return undefined;
}

function isEmptiedAttribute(
  role: PartRole,
  element: string,
  attribute: string,
  attributes: Record<string, string>,
): boolean {
  if (PERSON_ATTRIBUTES.has(attribute) || PERSON_ATTRIBUTES_OF[element]?.has(attribute)) return true;
  // Every target outside the package (a hyperlink, a linked workbook's externalLinkPath, an attached
  // template, a linked picture or OLE object) is a path under someone's folder or a server that learns
  // when the file is opened; Word's attached template is emptied even when marked internal.
  if (element === 'relationship' && attribute === 'target')
    return (
      attributeValue(attributes, 'targetmode')?.toLowerCase() === 'external' ||
      /\/attachedTemplate$/.test(attributeValue(attributes, 'type') ?? '')
    );
  // A simple field's instruction (w:fldSimple w:instr).
  if (element === 'fldsimple' && attribute === 'instr')
    return isNeutralisedField(attributeValue(attributes, 'instr') ?? '');
  // 한글 writes content="text" as the value's type, with the value as text; other writers put it here.
  if (role === 'hpf' && element === 'meta' && attribute === 'content')
    return (
      HPF_PERSON_META.has(attributeValue(attributes, 'name')?.toLowerCase() ?? '') &&
      attributeValue(attributes, 'content') !== 'text'
    );
  return false;
}

function isXmlSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

/**
 * The value ranges of the attributes of the start tag `xml[start, end)`, already checked by the parser.
 * One pass over the tag.
 */
function* attributeRanges(xml: string, start: number, end: number) {
  let at = start + 1;
  while (at < end && !isXmlSpace(xml.charCodeAt(at)) && xml[at] !== '>' && xml[at] !== '/') at += 1;
  for (;;) {
    while (at < end && isXmlSpace(xml.charCodeAt(at))) at += 1;
    if (at >= end || xml[at] === '>' || xml[at] === '/') return;
    const nameStart = at;
    while (at < end && xml[at] !== '=' && !isXmlSpace(xml.charCodeAt(at))) at += 1;
    const name = xml.slice(nameStart, at);
    while (at < end && isXmlSpace(xml.charCodeAt(at))) at += 1;
    if (xml[at] !== '=') unremovable('xml: attribute without a value');
    at += 1;
    while (at < end && isXmlSpace(xml.charCodeAt(at))) at += 1;
    const quote = xml[at];
    if (quote !== '"' && quote !== "'") unremovable('xml: unquoted attribute');
    const close = xml.indexOf(quote, at + 1);
    if (close === -1 || close >= end) unremovable('xml: unterminated attribute');
    yield { name, from: at + 1, to: close };
    at = close + 1;
  }
}

/** The part with the person-naming values emptied, or the same string when there is none. */
export function scrubXml(xml: string, role: PartRole): string {
  const bom = xml.startsWith('\ufeff') ? 1 : xml.startsWith('\u00ef\u00bb\u00bf') ? 3 : 0;
  const body = xml.slice(bom);
  const cuts: Array<[from: number, to: number]> = [];
  const parser = new SaxesParser({ position: true });
  let depth = 0;
  let emptiedDepth = -1;
  let emptiedFrom = 0;
  let isRemoving = false;
  // Complex fields (w:fldChar begin … separate … end): their instruction text may be split over runs, so
  // it is gathered, and its pieces are emptied together once the instruction is complete.
  const fields: Array<{ instruction: string; ranges: Array<[number, number]>; isComplete: boolean }> = [];
  let instructionFrom = -1;
  let instructionText = '';
  const completeField = () => {
    const field = fields.at(-1);
    if (!field || field.isComplete) return;
    field.isComplete = true;
    if (isNeutralisedField(field.instruction)) cuts.push(...field.ranges);
  };
  parser.on('text', (text) => {
    if (instructionFrom >= 0) instructionText += text;
  });
  parser.on('opentag', (tag) => {
    const element = localName(tag.name);
    if (element === 'fldchar') {
      const kind = attributeValue(tag.attributes as Record<string, string>, 'fldchartype');
      if (kind === 'begin') fields.push({ instruction: '', ranges: [], isComplete: false });
      else if (kind === 'separate') completeField();
      else if (kind === 'end') {
        completeField();
        fields.pop();
      }
    } else if (element === 'instrtext' && !tag.isSelfClosing) {
      instructionFrom = parser.position;
      instructionText = '';
    }
    if (emptiedDepth < 0) {
      const end = parser.position;
      const start = body.lastIndexOf('<', end - 1);
      const attributes = tag.attributes as Record<string, string>;
      const fate = elementFate(role, element, attributes, depth);
      if (fate === 'remove' && tag.isSelfClosing) {
        cuts.push([start, end]);
      } else if (fate === 'remove') {
        emptiedDepth = depth;
        emptiedFrom = start;
        isRemoving = true;
      } else {
        for (const { name, from, to } of attributeRanges(body, start, end)) {
          if (to > from && isEmptiedAttribute(role, element, localName(name), attributes))
            cuts.push([from, to]);
        }
        if (fate === 'empty' && !tag.isSelfClosing) {
          emptiedDepth = depth;
          emptiedFrom = end;
          isRemoving = false;
        }
      }
    }
    depth += 1;
  });
  parser.on('closetag', (tag) => {
    depth -= 1;
    if (instructionFrom >= 0 && localName(tag.name) === 'instrtext') {
      const range: [number, number] = [instructionFrom, body.lastIndexOf('<', parser.position - 1)];
      const field = fields.at(-1);
      if (field && !field.isComplete) {
        field.instruction += instructionText;
        field.ranges.push(range);
      } else if (isNeutralisedField(instructionText)) {
        cuts.push(range); // an instruction outside a well-formed field
      }
      instructionFrom = -1;
    }
    if (depth === emptiedDepth) {
      const closeEnd = parser.position;
      // Removing: up to the end of the closing tag; emptying: up to its start.
      const cutTo = isRemoving ? closeEnd : body.lastIndexOf('<', closeEnd - 1);
      if (cutTo > emptiedFrom) cuts.push([emptiedFrom, cutTo]);
      emptiedDepth = -1;
    }
  });
  // saxes throws at the first well-formedness error: an unclosed or mismatched tag, an unknown entity.
  parser.write(body).close();
  // A field left open at the end of the part: its instruction is judged as it stands.
  while (fields.length > 0) {
    completeField();
    fields.pop();
  }
  if (cuts.length === 0) return xml;
  // Field instructions are cut once complete, after later cuts may have been recorded.
  cuts.sort((a, b) => a[0] - b[0]);
  const kept: string[] = [xml.slice(0, bom)];
  let from = 0;
  for (const [cutFrom, cutTo] of cuts) {
    if (cutTo <= from) continue; // inside a cut already made
    kept.push(body.slice(from, Math.max(from, cutFrom)));
    from = cutTo;
  }
  kept.push(body.slice(from));
  return kept.join('');
}

/**
 * Runs the scrub over a part's bytes. Latin-1 maps bytes one to one, so markup (always ASCII) can be
 * edited in a UTF-8 or EUC-KR part without decoding, and every byte outside the edit is written back as
 * it was; UTF-16 parts, which start with a byte-order mark, are decoded for real.
 */
function scrubPart(content: Buffer, role: PartRole): Buffer {
  if (content[0] === 0xff && content[1] === 0xfe) {
    return Buffer.from(scrubXml(content.toString('utf16le'), role), 'utf16le');
  }
  if (content[0] === 0xfe && content[1] === 0xff) {
    return Buffer.from(scrubXml(Buffer.from(content).swap16().toString('utf16le'), role), 'utf16le').swap16();
  }
  const xml = content.toString('latin1');
  const scrubbed = scrubXml(xml, role);
  return scrubbed === xml ? content : Buffer.from(scrubbed, 'latin1');
}

/** The package paths of the property parts, from `_rels/.rels` as OPC defines, and where Office puts them. */
function propertyParts(input: Buffer, entries: ZipEntry[]) {
  const parts = {
    core: new Set(['docprops/core.xml']),
    extended: new Set(['docprops/app.xml']),
    custom: new Set(['docprops/custom.xml']),
  };
  const rels = entries.find((entry) => entry.name.toLowerCase() === '_rels/.rels');
  if (!rels) return parts;
  const parser = new SaxesParser({ position: false });
  parser.on('opentag', (tag) => {
    if (localName(tag.name) !== 'relationship') return;
    const attributes = tag.attributes as Record<string, string>;
    const type = attributeValue(attributes, 'type') ?? '';
    const target = (attributeValue(attributes, 'target') ?? '').replace(/^\//, '').toLowerCase();
    if (!target) return;
    // Part names are case-insensitive in OPC, so a renamed `DocProps/Core.xml` is still found.
    if (CORE_PROPERTIES_TYPE.test(type)) parts.core.add(target);
    if (EXTENDED_PROPERTIES_TYPE.test(type)) parts.extended.add(target);
    if (CUSTOM_PROPERTIES_TYPE.test(type)) parts.custom.add(target);
  });
  parser.write(readZipEntry(input, rels).toString('latin1')).close();
  return parts;
}

/**
 * A package signed with a digital signature (OOXML `_xmlsignatures/`, HWPX META-INF signatures) cannot be
 * cleaned: the signature covers the property parts, so editing them would make a signed — and thus more
 * probative — document look tampered with, and the signer's name is in the certificate anyway.
 */
function isSigned(entries: ZipEntry[]): boolean {
  return entries.some((entry) => {
    const name = entry.name.toLowerCase();
    return name.startsWith('_xmlsignatures/') || /^meta-inf\/[^/]*signature/.test(name);
  });
}

const XML_PART = /\.(xml|rels|hpf|vml|rdf)$/;
/**
 * Pictures pasted into a document keep their own EXIF (a phone photo's GPS position, its owner); Word and
 * 한글 store them as they were (`word/media/`, `BinData/`, thumbnails), so they are stripped like uploads.
 */
const IMAGE_PARTS: Array<[RegExp, (input: Buffer) => Buffer]> = [
  [/\.jpe?g$/, stripJpegMetadata],
  [/\.png$/, stripPngMetadata],
  [/\.gif$/, stripGifMetadata],
  [/\.webp$/, stripWebpMetadata],
];
/** A document embedded in another (a Word chart's workbook, a pasted slide): cleaned the same way. */
const EMBEDDED_PACKAGE = /\.(docx|docm|xlsx|xlsm|pptx|pptm|sldx|hwpx)$/;
/**
 * Parts emptied: OLE objects and ActiveX controls (binary compound files with their own author fields),
 * macros, printer settings (a printer's network name), 한글 scripts. The document still opens; the object
 * shows its last picture, which is a separate part.
 */
const EMPTIED_PART = /(\.(bin|ole|ocx)$|^(scripts\/|.*\/activex\/))/;
/**
 * Parts kept as they are: content with no place for a person's name (fonts, Windows metafile previews,
 * 한글's preview text, the mimetype), and folders.
 */
const KEPT_PART = /(^mimetype$|\/$|\.(odttf|ttf|otf|fntdata|emf|wmf|bmp|txt)$)/;
/** The parts of a package are inflated one at a time; beyond this total the package is refused. */
const MAX_READ_BYTES = 256 * 1024 * 1024;
/** How deep documents embedded in documents are followed; deeper is refused. */
const MAX_NESTING = 3;

/** Throws (outcome `unremovable`) on a package it cannot read or must not edit. */
export function stripPackageMetadata(input: Buffer): Buffer {
  return stripPackage(input, 0, { read: 0 });
}

function stripPackage(input: Buffer, depth: number, budget: { read: number }): Buffer {
  const archive = readZip(input);
  if (isSigned(archive.entries)) unremovable('package: digitally signed');
  const parts = propertyParts(input, archive.entries);
  const replacements = new Map<ZipEntry, Buffer>();
  const read = (entry: ZipEntry) => {
    budget.read += entry.size;
    if (budget.read > MAX_READ_BYTES) unremovable('package: too much to read');
    return readZipEntry(input, entry);
  };
  for (const entry of archive.entries) {
    const name = entry.name.toLowerCase();
    if (parts.custom.has(name)) {
      // Custom properties hold whatever a template or mail client put there (Outlook adds the sender's
      // name and address as _AuthorEmail); none of it is the evidence, so the whole part is emptied.
      replacements.set(entry, EMPTY_CUSTOM_PROPERTIES);
      continue;
    }
    if (EMBEDDED_PACKAGE.test(name)) {
      if (depth + 1 > MAX_NESTING) unremovable('package: documents nested too deep');
      const inner = read(entry);
      replacements.set(entry, stripPackage(inner, depth + 1, budget));
      continue;
    }
    if (EMPTIED_PART.test(name)) {
      replacements.set(entry, Buffer.alloc(0));
      continue;
    }
    const stripImage = IMAGE_PARTS.find(([pattern]) => pattern.test(name))?.[1];
    if (stripImage) {
      replacements.set(entry, stripImage(read(entry)));
      continue;
    }
    if (KEPT_PART.test(name)) continue;
    // Fail closed: a part the cleaner does not understand (a TIFF or HD Photo picture, an unknown
    // binary) could carry anything, so the package is not vouched for.
    if (!XML_PART.test(name) && !name.endsWith('.svg')) unremovable('package: part not understood');
    const role: PartRole = parts.core.has(name)
      ? 'core'
      : parts.extended.has(name)
        ? 'extended'
        : name.endsWith('.hpf')
          ? 'hpf'
          : name.endsWith('.svg')
            ? 'svg'
            : 'other';
    const content = read(entry);
    const scrubbed = scrubPart(content, role);
    if (scrubbed !== content) replacements.set(entry, scrubbed);
  }
  // Written anew even without a change: the archive's and entries' comments and extra fields go.
  return replaceZipEntries(input, archive, replacements);
}
