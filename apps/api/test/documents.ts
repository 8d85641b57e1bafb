import { PDFDocument, PDFName, StandardFonts } from '@cantoo/pdf-lib';
import { strToU8, Zip, ZipDeflate, ZipPassThrough, zipSync } from 'fflate';

/**
 * Evidence documents as Word, 한글 and "save as PDF" write them, carrying a reporter's name in their
 * metadata, for the tests that show the name does not survive an upload.
 */

export const AUTHOR_SENTINEL = 'AUTHOR-SENTINEL-김민지';
export const BODY_TEXT = '3층 회의실에서 팀장이 고성을 질렀다 BODY-TEXT';

/** Every way the sentinel's characters can sit in a file's bytes: UTF-8, UTF-16 and PDF hex strings. */
export function containsAuthor(bytes: Uint8Array): boolean {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf16be = Buffer.from(AUTHOR_SENTINEL, 'utf16le').swap16();
  return [
    Buffer.from(AUTHOR_SENTINEL),
    Buffer.from(AUTHOR_SENTINEL, 'utf16le'),
    utf16be,
    Buffer.from(utf16be.toString('hex').toUpperCase()),
    Buffer.from(utf16be.toString('hex')),
  ].some((needle) => buffer.includes(needle));
}

type Entry = [name: string, content: string, isStored: boolean];

function docxEntries(author: string): Entry[] {
  return [
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/><Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/><Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/></Types>',
      false,
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="docProps/custom.xml"/></Relationships>',
      false,
    ],
    [
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>${BODY_TEXT}</w:t></w:r></w:p></w:body></w:document>`,
      false,
    ],
    // Stored, so the name is in the upload's raw bytes and a test of those bytes proves something.
    [
      'docProps/core.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>회의록</dc:title><dc:creator>${author}</dc:creator><cp:lastModifiedBy>${author}</cp:lastModifiedBy><cp:revision>3</cp:revision><dcterms:created xsi:type="dcterms:W3CDTF">2026-10-01T09:00:00Z</dcterms:created></cp:coreProperties>`,
      true,
    ],
    [
      'docProps/app.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><Template>Normal.dotm</Template><Application>Microsoft Office Word</Application><Manager>${author}</Manager><Company>${author} 주식회사</Company></Properties>`,
      false,
    ],
    [
      'docProps/custom.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="_AuthorEmail"><vt:lpwstr>${author}@a.example</vt:lpwstr></property></Properties>`,
      true,
    ],
  ];
}

function hwpxEntries(author: string): Entry[] {
  return [
    ['mimetype', 'application/hwp+zip', true],
    [
      'version.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" tagetApplication="WORDPROCESSOR" major="5" minor="1" micro="0" buildNumber="1" os="1" xmlVersion="1.4" application="Hancom Office Hangul" appVersion="12.0.0.1"/>',
      false,
    ],
    [
      'META-INF/container.xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/></ocf:rootfiles></ocf:container>',
      false,
    ],
    [
      'Contents/content.hpf',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/" xmlns:dc="http://purl.org/dc/elements/1.1/" version="" unique-identifier="" id=""><opf:metadata><opf:title>진술서</opf:title><opf:language>ko</opf:language><opf:meta name="creator" content="text">${author}</opf:meta><opf:meta name="subject" content="text"/><opf:meta name="description" content="text"/><opf:meta name="lastsaveby" content="text">${author}</opf:meta><opf:meta name="CreatedDate" content="text">2026-10-01T09:00:00Z</opf:meta><opf:meta name="keyword" content="text"/></opf:metadata><opf:manifest><opf:item id="header" href="Contents/header.xml" media-type="application/xml"/><opf:item id="section0" href="Contents/section0.xml" media-type="application/xml"/></opf:manifest><opf:spine><opf:itemref idref="header" linear="yes"/><opf:itemref idref="section0" linear="yes"/></opf:spine></opf:package>`,
      true,
    ],
    [
      'Contents/section0.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p id="1"><hp:run charPrIDRef="0"><hp:t>${BODY_TEXT}</hp:t></hp:run></hp:p></hs:sec>`,
      false,
    ],
    ['Preview/PrvText.txt', BODY_TEXT, false],
  ];
}

function zipAtOnce(entries: Entry[]): Buffer {
  const files = Object.fromEntries(
    entries.map(([name, content, isStored]) => [name, [strToU8(content), { level: isStored ? 0 : 6 }]]),
  );
  return Buffer.from(zipSync(files as Parameters<typeof zipSync>[0]));
}

/** As a server streaming an export writes it: sizes and CRCs in data descriptors after each entry. */
function zipStreamed(entries: Entry[]): Buffer {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    chunks.push(chunk);
  });
  for (const [name, content, isStored] of entries) {
    const file = isStored ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(strToU8(content), true);
  }
  zip.end();
  return Buffer.concat(chunks);
}

export type ZipLayout = 'at-once' | 'streamed';

export function docxWithAuthor(author = AUTHOR_SENTINEL, layout: ZipLayout = 'at-once'): Buffer {
  return (layout === 'streamed' ? zipStreamed : zipAtOnce)(docxEntries(author));
}

export function hwpxWithAuthor(author = AUTHOR_SENTINEL, layout: ZipLayout = 'at-once'): Buffer {
  return (layout === 'streamed' ? zipStreamed : zipAtOnce)(hwpxEntries(author));
}

/**
 * A one-page PDF with the author in its Info dictionary and in an uncompressed XMP packet, as Word's
 * "save as PDF" writes it. With object streams, the Info dictionary sits compressed inside one.
 */
export async function pdfWithAuthor(
  author = AUTHOR_SENTINEL,
  { useObjectStreams = false } = {},
): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const font = await document.embedFont(StandardFonts.Helvetica);
  document.addPage([300, 200]).drawText('BODY-TEXT', { x: 20, y: 100, size: 12, font });
  document.setTitle('회의록');
  document.setAuthor(author);
  document.setCreator(`Microsoft Word - ${author}`);
  document.setProducer('Microsoft: Print To PDF');
  const xmp = Buffer.from(
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
      `<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${author}</rdf:li></rdf:Seq></dc:creator></rdf:Description>` +
      '</rdf:RDF></x:xmpmeta><?xpacket end="w"?>',
  );
  const metadata = document.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' });
  document.catalog.set(PDFName.of('Metadata'), document.context.register(metadata));
  return Buffer.from(await document.save({ useObjectStreams }));
}
