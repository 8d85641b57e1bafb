import { readZip, readZipEntry, replaceZipEntries, type ZipEntry } from './zip-archive.ts';

/**
 * Blanks the author fields of Office Open XML (docx, xlsx, pptx) and HWPX packages. Word, Excel, PowerPoint
 * and 한글 write the account name of whoever created and last saved a file, and often the company, into
 * the package; a manager opening an anonymous reporter's evidence would read the reporter's name there.
 * Only those parts change, as text, so everything else in the XML keeps its bytes and namespaces (한글 is
 * known to refuse a package whose XML a serializer has rearranged).
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

/** `opf:meta` names under which 한글 and other HWPX writers record a person. */
const HWPX_PERSON_META = new Set(['creator', 'lastsaveby', 'author']);

/**
 * Runs `edit` over an XML part as text. Latin-1 maps bytes one to one, so markup (always ASCII) can be
 * edited in a UTF-8 or EUC-KR part without decoding, and every byte outside the edit is written back as
 * it was; UTF-16 parts, which start with a byte-order mark, are decoded for real.
 */
function editXml(content: Buffer, edit: (xml: string) => string): Buffer {
  if (content[0] === 0xff && content[1] === 0xfe) {
    return Buffer.from(edit(content.toString('utf16le')), 'utf16le');
  }
  if (content[0] === 0xfe && content[1] === 0xff) {
    const edited = Buffer.from(edit(Buffer.from(content).swap16().toString('utf16le')), 'utf16le');
    return edited.swap16();
  }
  return Buffer.from(edit(content.toString('latin1')), 'latin1');
}

/** Empties the text of every element with one of these local names, whatever its namespace prefix. */
function blankElements(xml: string, localNames: string[]): string {
  const pattern = new RegExp(
    `<((?:[\\w.-]+:)?(?:${localNames.join('|')}))((?:\\s[^>]*)?)(?<!/)>[\\s\\S]*?</\\1\\s*>`,
    'g',
  );
  return xml.replace(pattern, (_match, tag: string, attributes: string) => `<${tag}${attributes}></${tag}>`);
}

/** Empties the `opf:meta` entries that name a person, whether the name is their text or their `content`. */
function blankPersonMeta(xml: string): string {
  const pattern = /<((?:[\w.-]+:)?meta)(\s[^>]*?)(\/>|>([\s\S]*?)<\/\1\s*>)/g;
  return xml.replace(pattern, (match, tag: string, attributes: string, close: string) => {
    const name = /(?:^|\s)name\s*=\s*(["'])(.*?)\1/.exec(attributes)?.[2]?.toLowerCase();
    if (!name || !HWPX_PERSON_META.has(name)) return match;
    // 한글 writes content="text" as the value's type, with the value as text; other writers put it here.
    const kept = attributes.replace(/(\scontent\s*=\s*)(["'])(.*?)\2/, (attribute, prefix, quote, value) =>
      value === 'text' ? attribute : `${prefix}${quote}${quote}`,
    );
    return close === '/>' ? `<${tag}${kept}/>` : `<${tag}${kept}></${tag}>`;
  });
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
  const xml = readZipEntry(input, rels).toString('latin1');
  for (const [relationship] of xml.matchAll(/<(?:[\w.-]+:)?Relationship\s[^>]*>/g)) {
    const type = /\sType\s*=\s*(["'])(.*?)\1/.exec(relationship)?.[2] ?? '';
    const target = (/\sTarget\s*=\s*(["'])(.*?)\1/.exec(relationship)?.[2] ?? '').replace(/^\//, '');
    if (!target) continue;
    // Part names are case-insensitive in OPC, so a renamed `DocProps/Core.xml` is still found.
    if (CORE_PROPERTIES_TYPE.test(type)) parts.core.add(target.toLowerCase());
    if (EXTENDED_PROPERTIES_TYPE.test(type)) parts.extended.add(target.toLowerCase());
    if (CUSTOM_PROPERTIES_TYPE.test(type)) parts.custom.add(target.toLowerCase());
  }
  return parts;
}

/**
 * An OOXML package signed with a digital signature (`_xmlsignatures/`) or an HWPX one (META-INF signatures)
 * is kept as uploaded: the signature covers the property parts, so editing them would make a signed — and
 * thus more probative — document look tampered with, and the signer's name is in the certificate anyway.
 */
function isSigned(entries: ZipEntry[]): boolean {
  return entries.some((entry) => {
    const name = entry.name.toLowerCase();
    return name.startsWith('_xmlsignatures/') || /^meta-inf\/[^/]*signature/.test(name);
  });
}

/** Throws on a package it cannot read; the caller then keeps the upload as it is. */
export function stripPackageMetadata(input: Buffer): Buffer {
  const archive = readZip(input);
  if (isSigned(archive.entries)) return input;
  const parts = propertyParts(input, archive.entries);
  const replacements = new Map<ZipEntry, Buffer>();
  for (const entry of archive.entries) {
    const name = entry.name.toLowerCase();
    let replacement: Buffer | undefined;
    if (parts.core.has(name)) {
      replacement = editXml(readZipEntry(input, entry), (xml) =>
        blankElements(xml, ['creator', 'lastModifiedBy']),
      );
    } else if (parts.extended.has(name)) {
      replacement = editXml(readZipEntry(input, entry), (xml) => blankElements(xml, ['Company', 'Manager']));
    } else if (parts.custom.has(name)) {
      // Custom properties hold whatever a template or mail client put there (Outlook adds the sender's
      // name and address as _AuthorEmail); none of it is the evidence, so the whole part is emptied.
      replacement = EMPTY_CUSTOM_PROPERTIES;
    } else if (name.endsWith('.hpf')) {
      replacement = editXml(readZipEntry(input, entry), (xml) =>
        blankPersonMeta(blankElements(xml, ['creator'])),
      );
    }
    if (replacement && (replacement.length !== entry.size || !replacement.equals(readZipEntry(input, entry))))
      replacements.set(entry, replacement);
  }
  return replacements.size === 0 ? input : replaceZipEntries(input, archive, replacements);
}
