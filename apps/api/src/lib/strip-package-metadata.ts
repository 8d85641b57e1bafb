import { SaxesParser } from 'saxes';
import { unremovable } from './metadata-outcome.ts';
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
};

type PartRole = 'core' | 'extended' | 'hpf' | 'other';

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
  // Word's attached template, as an external relationship, is often a path under the user's folder.
  if (element === 'relationship' && attribute === 'target')
    return /\/attachedTemplate$/.test(attributeValue(attributes, 'type') ?? '');
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
  parser.on('opentag', (tag) => {
    if (emptiedDepth < 0) {
      const end = parser.position;
      const start = body.lastIndexOf('<', end - 1);
      const element = localName(tag.name);
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
  parser.on('closetag', () => {
    depth -= 1;
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
  if (cuts.length === 0) return xml;
  const kept: string[] = [xml.slice(0, bom)];
  let from = 0;
  for (const [cutFrom, cutTo] of cuts) {
    kept.push(body.slice(from, cutFrom));
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

const XML_PART = /\.(xml|rels|hpf)$/;
/** All the XML of a package is inflated one part at a time; beyond this total the package is refused. */
const MAX_XML_BYTES = 256 * 1024 * 1024;

/** Throws (outcome `unremovable`) on a package it cannot read or must not edit. */
export function stripPackageMetadata(input: Buffer): Buffer {
  const archive = readZip(input);
  if (isSigned(archive.entries)) unremovable('package: digitally signed');
  const parts = propertyParts(input, archive.entries);
  const replacements = new Map<ZipEntry, Buffer>();
  let inflated = 0;
  for (const entry of archive.entries) {
    const name = entry.name.toLowerCase();
    if (parts.custom.has(name)) {
      // Custom properties hold whatever a template or mail client put there (Outlook adds the sender's
      // name and address as _AuthorEmail); none of it is the evidence, so the whole part is emptied.
      if (!readZipEntry(input, entry).equals(EMPTY_CUSTOM_PROPERTIES))
        replacements.set(entry, EMPTY_CUSTOM_PROPERTIES);
      continue;
    }
    if (!XML_PART.test(name)) continue;
    inflated += entry.size;
    if (inflated > MAX_XML_BYTES) unremovable('package: too much XML');
    const role: PartRole = parts.core.has(name)
      ? 'core'
      : parts.extended.has(name)
        ? 'extended'
        : name.endsWith('.hpf')
          ? 'hpf'
          : 'other';
    const content = readZipEntry(input, entry);
    const scrubbed = scrubPart(content, role);
    if (scrubbed !== content) replacements.set(entry, scrubbed);
  }
  return replacements.size === 0 ? input : replaceZipEntries(input, archive, replacements);
}
