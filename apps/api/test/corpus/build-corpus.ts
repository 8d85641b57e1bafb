import { deflateSync } from 'node:zlib';
import {
  PDFDocument,
  PDFHexString,
  PDFName,
  type PDFRawStream,
  PDFString,
  StandardFonts,
} from '@cantoo/pdf-lib';
import {
  box,
  CONTENT_TYPES,
  exiftoolWrite,
  metadataFixtures,
  OFFICE_DOCUMENT,
  officeZip,
  PLAIN_WEBP,
  plainJpeg,
  plainMp4,
  plainPng,
  pngChunk,
  ROOT_RELS,
  segment,
} from '../metadata-fixtures.ts';

/**
 * The evidence corpus: files in the shapes reporters really upload (a phone photo, a scan app's PDF, a
 * Word statement with a chart, a voice memo…), each carrying a sentinel in a place a cleaner could miss:
 * nested images, attached files, embedded workbooks, external links, field codes, ZIP comments. Every
 * sentinel starts with `CORPUS_MARK`, followed by the file's own name, so a finding names its source.
 * Built here from bytes, by pdf-lib and fflate, and by Debian's exiftool writing the tags a camera would:
 * nothing is downloaded. `npx tsx apps/api/test/corpus/build-corpus.ts DIR` writes them out to look at.
 */

export const CORPUS_MARK = 'ZQXSNT';

/** What the upload must make of a file: cleaned, nothing to clean, kept but unremovable, or refused. */
export type CorpusOutcome = 'removed' | 'none' | 'unremovable' | 'refused';

export interface CorpusFile {
  name: string;
  /** Where its sentinel sits, in words. */
  where: string;
  bytes: Buffer;
  outcome: CorpusOutcome;
}

const mark = (slug: string) => `${CORPUS_MARK}-${slug}`;

const W = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const R = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\r\n';
const RELS = (relationships: string) =>
  `${XML_HEAD}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${relationships}</Relationships>`;
const WORD_CONTENT_TYPES = CONTENT_TYPES(
  '<Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/>',
);

function docProps(sentinel: string): Record<string, string> {
  return {
    'docProps/core.xml': `${XML_HEAD}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${sentinel}-creator</dc:creator><cp:lastModifiedBy>${sentinel}-lastmod</cp:lastModifiedBy><cp:revision>2</cp:revision></cp:coreProperties>`,
    'docProps/app.xml': `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties"><Application>Microsoft Office Word</Application><Company>${sentinel}-company</Company><Manager>${sentinel}-manager</Manager></Properties>`,
    'docProps/custom.xml': `${XML_HEAD}<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes"><property fmtid="{D5CDD505-2E9C-101B-9397-08002B2CF9AE}" pid="2" name="_AuthorEmail"><vt:lpwstr>${sentinel}@mail.example</vt:lpwstr></property></Properties>`,
  };
}

const wordDocument = (body: string, namespaces = '') =>
  `${XML_HEAD}<w:document ${W} ${R}${namespaces}><w:body>${body}</w:body></w:document>`;
const PARAGRAPH = '<w:p><w:r><w:t>3층 회의실에서 팀장이 고성을 질렀다</w:t></w:r></w:p>';

/** A phone photo: EXIF owner, camera and serial number, GPS, XMP, a comment, vendor segments. */
async function phoneJpeg(sentinel: string): Promise<Buffer> {
  const tagged = await exiftoolWrite('.jpg', plainJpeg(), [
    `-EXIF:Artist=${sentinel}-artist`,
    '-EXIF:Make=Samsung',
    `-EXIF:Model=${sentinel}-model`,
    `-ExifIFD:SerialNumber=${sentinel}-serial`,
    `-ExifIFD:OwnerName=${sentinel}-owner`,
    '-GPSLatitude=37.5665',
    '-GPSLatitudeRef=N',
    '-GPSLongitude=126.978',
    '-GPSLongitudeRef=E',
    `-XMP-dc:Creator=${sentinel}-xmp`,
    `-Comment=${sentinel}-com`,
  ]);
  // A maker note as phones write it (a vendor block exiftool cannot write from scratch) and an APP13.
  return Buffer.concat([
    tagged.subarray(0, 2),
    segment(0xe1, Buffer.from(`Exif\0\0MM\0*\0\0\0\x08MakerNote Samsung ${sentinel}-makernote`, 'latin1')),
    segment(0xed, Buffer.from(`Photoshop 3.0\0 8BIM ${sentinel}-iptc`, 'latin1')),
    tagged.subarray(2),
  ]);
}

/** An iPhone HEIC: ftyp heic, and an Exif item in its meta box. The upload does not accept HEIC. */
function phoneHeic(sentinel: string): Buffer {
  return Buffer.concat([
    box('ftyp', Buffer.from('heic\0\0\0\0mif1heic', 'latin1')),
    box(
      'meta',
      Buffer.alloc(4),
      box('hdlr', Buffer.alloc(8), Buffer.from('pict', 'latin1'), Buffer.alloc(13)),
    ),
    box('mdat', Buffer.from(`Exif\0\0MM\0*\0\0\0\x08 Artist ${sentinel}`, 'latin1')),
  ]);
}

/** A screenshot tool's PNG: tEXt, zTXt (compressed) and iTXt (XMP) chunks. */
function screenshotPng(sentinel: string): Buffer {
  const png = plainPng();
  const iend = png.length - 12;
  const text = (keyword: string, value: string) =>
    pngChunk('tEXt', Buffer.from(`${keyword}\0${value}`, 'latin1'));
  const compressed = pngChunk(
    'zTXt',
    Buffer.concat([Buffer.from('Comment\0\0', 'latin1'), deflateSync(Buffer.from(`${sentinel}-ztxt`))]),
  );
  const international = pngChunk(
    'iTXt',
    Buffer.concat([
      Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'),
      Buffer.from(
        `<x:xmpmeta xmlns:x="adobe:ns:meta/"><dc:creator>${sentinel}-itxt</dc:creator></x:xmpmeta>`,
      ),
    ]),
  );
  return Buffer.concat([
    png.subarray(0, iend),
    text('Author', `${sentinel}-text`),
    text('Software', `Greenshot ${sentinel}-software`),
    compressed,
    international,
    png.subarray(iend),
  ]);
}

async function taggedWebp(sentinel: string): Promise<Buffer> {
  return exiftoolWrite('.webp', PLAIN_WEBP, [
    `-EXIF:Artist=${sentinel}-exif`,
    `-XMP-dc:Creator=${sentinel}-xmp`,
  ]);
}

async function savedPdf(document: PDFDocument): Promise<Buffer> {
  return Buffer.from(await document.save({ useObjectStreams: false }));
}

async function pageWithText(document: PDFDocument) {
  const font = await document.embedFont(StandardFonts.Helvetica);
  const page = document.addPage([300, 200]);
  page.drawText('BODY-TEXT', { x: 20, y: 150, size: 12, font });
  return page;
}

/** A scan app's PDF: the page is the phone photo, EXIF and all, as a DCTDecode image XObject. */
async function scannedPdf(sentinel: string, { underFlate = false } = {}): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const photo = await phoneJpeg(sentinel);
  const page = document.addPage([300, 200]);
  if (underFlate) {
    // Some writers compress the JPEG once more: /Filter [/FlateDecode /DCTDecode].
    const stream = document.context.flateStream(photo, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: 8,
      Height: 8,
      ColorSpace: 'DeviceGray',
      BitsPerComponent: 8,
    });
    stream.dict.set(PDFName.of('Filter'), document.context.obj(['FlateDecode', 'DCTDecode']));
    const ref = document.context.register(stream);
    page.node.setXObject(PDFName.of('Im0'), ref);
    return savedPdf(document);
  }
  const image = await document.embedJpg(photo);
  page.drawImage(image, { x: 0, y: 0, width: 300, height: 200 });
  return savedPdf(document);
}

/** A PDF with an attached file in /EmbeddedFiles and a file-attachment annotation on its page. */
async function attachmentPdf(sentinel: string): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = await pageWithText(document);
  await document.attach(Buffer.from(`attached statement by ${sentinel}-embedded`), 'statement.txt', {
    mimeType: 'text/plain',
    description: `${sentinel}-description`,
  });
  const { context } = document;
  const file = context.flateStream(Buffer.from(`annotation file by ${sentinel}-annotfile`), {
    Type: 'EmbeddedFile',
  });
  const spec = context.obj({
    Type: 'Filespec',
    F: PDFString.of('note.txt'),
    EF: { F: context.register(file) },
  });
  const annotation = context.obj({
    Type: 'Annot',
    Subtype: 'FileAttachment',
    Rect: [10, 10, 30, 30],
    FS: context.register(spec),
    Contents: PDFHexString.fromText(`${sentinel}-annotcontents`),
  });
  page.node.set(PDFName.of('Annots'), context.obj([context.register(annotation)]));
  return savedPdf(document);
}

const xmpPacket = (creator: string) =>
  Buffer.from(
    `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator><rdf:Seq><rdf:li>${creator}</rdf:li></rdf:Seq></dc:creator></rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>`,
  );

/** XMP on the page and on an image (as InDesign and Acrobat write them), compressed. */
async function xmpPdf(sentinel: string): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = await pageWithText(document);
  const { context } = document;
  const pageXmp = context.flateStream(xmpPacket(`${sentinel}-pagexmp`), { Type: 'Metadata', Subtype: 'XML' });
  page.node.set(PDFName.of('Metadata'), context.register(pageXmp));
  const image = await document.embedPng(plainPng());
  page.drawImage(image, { x: 0, y: 0, width: 20, height: 20 });
  await document.flush();
  const imageStream = context.lookup(image.ref);
  const imageXmp = context.flateStream(xmpPacket(`${sentinel}-imagexmp`), {
    Type: 'Metadata',
    Subtype: 'XML',
  });
  (imageStream as PDFRawStream).dict.set(PDFName.of('Metadata'), context.register(imageXmp));
  // An application's private data on the page, and a stream of XML with no /Type.
  const loose = context.flateStream(Buffer.from(`<x>${sentinel}-loosexml</x>`), { Subtype: 'XML' });
  page.node.set(PDFName.of('PieceInfo'), context.obj({ App: { Private: context.register(loose) } }));
  return savedPdf(document);
}

/** Scripts and automatic actions: document JavaScript, an open action, a page action, a launch link. */
async function scriptPdf(sentinel: string): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = await pageWithText(document);
  const { context, catalog } = document;
  const script = (label: string) =>
    context.obj({
      S: 'JavaScript',
      JS: PDFString.of(`app.launchURL("https://e.example/${sentinel}-${label}")`),
    });
  catalog.set(PDFName.of('OpenAction'), context.register(script('openaction')));
  const scripts = context.obj({ Names: [PDFString.of('init'), context.register(script('names'))] });
  catalog.set(PDFName.of('Names'), context.obj({ JavaScript: context.register(scripts) }));
  page.node.set(PDFName.of('AA'), context.obj({ O: context.register(script('pageaa')) }));
  const link = context.obj({
    Type: 'Annot',
    Subtype: 'Link',
    Rect: [0, 0, 50, 50],
    A: { S: 'Launch', F: PDFString.of(`C:\\Users\\${sentinel}-launch\\run.exe`) },
  });
  page.node.set(PDFName.of('Annots'), context.obj([context.register(link)]));
  return savedPdf(document);
}

/** A PDF whose image is JPEG 2000 (JPXDecode): its boxes can hold XML the cleaner does not parse. */
async function jpxPdf(sentinel: string): Promise<Buffer> {
  const document = await PDFDocument.create({ updateMetadata: false });
  const page = document.addPage([100, 100]);
  const jp2 = Buffer.concat([
    box('jP  ', Buffer.from([0x0d, 0x0a, 0x87, 0x0a])),
    box('ftyp', Buffer.from('jp2 \0\0\0\0jp2 ', 'latin1')),
    box('xml ', Buffer.from(`<x:xmpmeta><dc:creator>${sentinel}</dc:creator></x:xmpmeta>`)),
  ]);
  const stream = document.context.stream(jp2, {
    Type: 'XObject',
    Subtype: 'Image',
    Width: 1,
    Height: 1,
    Filter: 'JPXDecode',
  });
  page.node.setXObject(PDFName.of('Im0'), document.context.register(stream));
  return savedPdf(document);
}

/** A Word statement with every property part filled, and a ZIP comment. */
function docxProperties(sentinel: string): Buffer {
  const zip = officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(PARAGRAPH),
    ...docProps(sentinel),
  });
  return withZipComment(zip, `${sentinel}-zipcomment`);
}

/** The archive with a comment in its end record, as some packers and mail gateways add. */
function withZipComment(zip: Buffer, comment: string): Buffer {
  const text = Buffer.from(comment);
  const end = Buffer.from(zip.subarray(zip.length - 22));
  end.writeUInt16LE(text.length, 20);
  return Buffer.concat([zip.subarray(0, zip.length - 22), end, text]);
}

/** An Excel workbook with its own property parts, as Word embeds a chart's data. */
function workbook(sentinel: string, extra: Record<string, string> = {}): Buffer {
  return officeZip({
    '[Content_Types].xml': CONTENT_TYPES(
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>',
    ),
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'xl/workbook.xml'),
    'xl/workbook.xml': `${XML_HEAD}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ${R}><sheets><sheet name="근무기록" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ...docProps(sentinel),
    ...extra,
  });
}

/** A Word document with a chart's workbook (its own core.xml) and a phone photo pasted in. */
async function docxEmbedded(sentinel: string): Promise<Buffer> {
  return officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(PARAGRAPH),
    'word/_rels/document.xml.rels': RELS(
      `<Relationship Id="rId5" Type="${REL}/package" Target="embeddings/Microsoft_Excel_Worksheet.xlsx"/><Relationship Id="rId6" Type="${REL}/image" Target="media/image1.jpeg"/>`,
    ),
    'word/embeddings/Microsoft_Excel_Worksheet.xlsx': workbook(`${sentinel}-inner`),
    'word/media/image1.jpeg': await phoneJpeg(`${sentinel}-pasted`),
  });
}

/** Links out of a Word document: a file:/// hyperlink, a remote picture, fields that fetch, a template. */
function docxLinks(sentinel: string): Buffer {
  const body =
    `<w:p><w:hyperlink r:id="rId7"><w:r><w:t>증거 폴더</w:t></w:r></w:hyperlink></w:p>` +
    // INCLUDEPICTURE split over two runs, as Word writes a long instruction.
    `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> INCLUDEPICTURE "https://track.example/</w:instrText></w:r><w:r><w:instrText>${sentinel}-includepicture.png" \\d </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>그림</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>` +
    `<w:p><w:fldSimple w:instr=" INCLUDETEXT &quot;C:\\\\Users\\\\${sentinel}-includetext\\\\a.docx&quot; "><w:r><w:t>본문</w:t></w:r></w:fldSimple></w:p>` +
    `<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> LINK Excel.Sheet.12 "\\\\\\\\server\\\\${sentinel}-link\\\\b.xlsx" "" \\a </w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>` +
    `<w:p><w:r><w:pict><v:shape><v:imagedata r:id="rId8" o:href="file:///C:\\Users\\${sentinel}-vmlhref\\p.png"/></v:shape></w:pict></w:r></w:p>`;
  return officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(
      body,
      ' xmlns:v="urn:schemas-microsoft-com:vml" xmlns:o="urn:schemas-microsoft-com:office:office"',
    ),
    'word/_rels/document.xml.rels': RELS(
      `<Relationship Id="rId7" Type="${REL}/hyperlink" Target="file:///C:\\Users\\${sentinel}-hyperlink\\증거\\" TargetMode="External"/><Relationship Id="rId8" Type="${REL}/image" Target="https://track.example/${sentinel}-remoteimage.png" TargetMode="External"/><Relationship Id="rId9" TargetMode="External" Target="file:///C:\\Users\\${sentinel}-oleobject\\x.xlsx" Type="${REL}/oleObject"/>`,
    ),
    'word/settings.xml': `${XML_HEAD}<w:settings ${W} ${R}><w:attachedTemplate r:id="rId1"/></w:settings>`,
    'word/_rels/settings.xml.rels': RELS(
      `<Relationship Id="rId1" Type="${REL}/attachedTemplate" Target="file:///C:\\Users\\${sentinel}-template\\Normal.dotm" TargetMode="External"/>`,
    ),
  });
}

/** A workbook linking another by path: xl/externalLinks/_rels with externalLinkPath. */
function xlsxExternalLink(sentinel: string): Buffer {
  return workbook(`${sentinel}-props`, {
    'xl/externalLinks/externalLink1.xml': `${XML_HEAD}<externalLink xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" ${R}><externalBook r:id="rId1"><sheetNames><sheetName val="Sheet1"/></sheetNames></externalBook></externalLink>`,
    'xl/externalLinks/_rels/externalLink1.xml.rels': RELS(
      `<Relationship Id="rId1" Type="${REL}/externalLinkPath" Target="file:///C:\\Users\\${sentinel}-externallink\\급여.xlsx" TargetMode="External"/>`,
    ),
    'xl/comments1.xml': `${XML_HEAD}<comments xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><authors><author>${sentinel}-commentauthor</author></authors><commentList/></comments>`,
  });
}

/** A deck with comment authors (legacy and modern), a notes page and an embedded Word document. */
function pptxComments(sentinel: string): Buffer {
  const innerDocx = officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(PARAGRAPH),
    ...docProps(`${sentinel}-innerdocx`),
    // An embedded workbook inside the embedded document: two levels down.
    'word/embeddings/Book1.xlsx': workbook(`${sentinel}-deepest`),
  });
  return officeZip({
    '[Content_Types].xml': CONTENT_TYPES(
      '<Override PartName="/ppt/presentation.xml" ContentType="application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml"/>',
    ),
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'ppt/presentation.xml'),
    'ppt/presentation.xml': `${XML_HEAD}<p:presentation xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"/>`,
    'ppt/commentAuthors.xml': `${XML_HEAD}<p:cmAuthorLst xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cmAuthor id="1" name="${sentinel}-cmauthor" initials="${sentinel}-initials" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>`,
    'ppt/authors.xml': `${XML_HEAD}<p188:authorLst xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"><p188:author id="{1}" name="${sentinel}-modernauthor" initials="K" userId="${sentinel}-userid@company.example" providerId="AD"/></p188:authorLst>`,
    'ppt/notesSlides/notesSlide1.xml': `${XML_HEAD}<p:notes xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"><p:cSld/></p:notes>`,
    'ppt/embeddings/Microsoft_Word_Document.docx': innerDocx,
    ...docProps(`${sentinel}-deck`),
  });
}

/** 한글's HWPX: content.hpf creator and last editor, a track-change author, a pasted photo's EXIF. */
async function hwpx(sentinel: string): Promise<Buffer> {
  return officeZip({
    mimetype: 'application/hwp+zip',
    'version.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hv:HCFVersion xmlns:hv="http://www.hancom.co.kr/hwpml/2011/version" major="5" minor="1" micro="0" buildNumber="1" os="1" xmlVersion="1.4" application="Hancom Office Hangul" appVersion="12.0.0.1"/>',
    'META-INF/container.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><ocf:container xmlns:ocf="urn:oasis:names:tc:opendocument:xmlns:container"><ocf:rootfiles><ocf:rootfile full-path="Contents/content.hpf" media-type="application/hwpml-package+xml"/></ocf:rootfiles></ocf:container>',
    'Contents/content.hpf': `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><opf:package xmlns:opf="http://www.idpf.org/2007/opf/"><opf:metadata><opf:title>진술서</opf:title><opf:meta name="creator" content="text">${sentinel}-creator</opf:meta><opf:meta name="lastsaveby" content="text">${sentinel}-lastsaveby</opf:meta></opf:metadata></opf:package>`,
    'Contents/header.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hh:head xmlns:hh="http://www.hancom.co.kr/hwpml/2011/head"><hh:trackChangeAuthors><hh:trackChangeAuthor name="${sentinel}-trackchange" mark="1"/></hh:trackChangeAuthors></hh:head>`,
    'Contents/section0.xml':
      '<?xml version="1.0" encoding="UTF-8" standalone="yes" ?><hs:sec xmlns:hs="http://www.hancom.co.kr/hwpml/2011/section" xmlns:hp="http://www.hancom.co.kr/hwpml/2011/paragraph"><hp:p id="1"><hp:run><hp:t>3층 회의실에서</hp:t></hp:run></hp:p></hs:sec>',
    'BinData/image1.jpg': await phoneJpeg(`${sentinel}-bindata`),
    'BinData/ole1.ole': Buffer.from(`OLE object by ${sentinel}-ole`),
    'Scripts/headerScripts': `var author = "${sentinel}-script";`,
    'Preview/PrvText.txt': '3층 회의실에서',
  });
}

/** A Word document with an OLE object and an ActiveX control, both binary compound files. */
function docxOle(sentinel: string): Buffer {
  return officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(PARAGRAPH),
    'word/embeddings/oleObject1.bin': Buffer.concat([
      Buffer.from('d0cf11e0a1b11ae1', 'hex'),
      Buffer.from(`SummaryInformation Author ${sentinel}-ole`, 'utf16le'),
    ]),
    'word/activeX/activeX1.bin': Buffer.from(`control by ${sentinel}-activex`),
    'word/activeX/activeX1.xml': `${XML_HEAD}<ax:ocx xmlns:ax="http://schemas.microsoft.com/office/2006/activeX" ax:classid="{8BD21D40-EC42-11CE-9E0D-00AA006002F3}" ax:persistence="persistStorage"/>`,
    'word/vbaProject.bin': Buffer.from(`Attribute VB_Name = "${sentinel}-vba"`),
    'word/printerSettings/printerSettings1.bin': Buffer.from(`\\\\PRINT01\\${sentinel}-printer`, 'utf16le'),
  });
}

/** A Word document with an SVG icon whose <metadata> names its author. */
function docxSvg(sentinel: string): Buffer {
  return officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(PARAGRAPH),
    'word/media/image1.svg': `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"><metadata><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><dc:creator xmlns:dc="http://purl.org/dc/elements/1.1/">${sentinel}-svg</dc:creator></rdf:RDF></metadata><rect width="1" height="1"/></svg>`,
  });
}

/** A Word document with a TIFF picture: EXIF in a format the cleaner does not edit. */
function docxTiff(sentinel: string): Buffer {
  return officeZip({
    '[Content_Types].xml': WORD_CONTENT_TYPES,
    '_rels/.rels': ROOT_RELS(OFFICE_DOCUMENT, 'word/document.xml'),
    'word/document.xml': wordDocument(PARAGRAPH),
    'word/media/image1.tiff': Buffer.concat([
      Buffer.from('II*\0', 'latin1'),
      Buffer.from(`Artist ${sentinel}`),
    ]),
  });
}

/** A legacy .doc (an OLE compound file): kept as uploaded, never cited by an anonymous report. */
function legacyDoc(sentinel: string): Buffer {
  return Buffer.concat([
    Buffer.from('d0cf11e0a1b11ae1', 'hex'),
    Buffer.alloc(504),
    Buffer.from(`Author ${sentinel}`, 'utf16le'),
    Buffer.alloc(512),
  ]);
}

/** An M4A voice memo as an iPhone records it: ©nam, ©day, ©xyz in udta, the device in meta/ilst. */
async function voiceMemo(sentinel: string): Promise<Buffer> {
  return exiftoolWrite('.m4a', plainMp4('M4A '), [
    `-ItemList:Title=${sentinel}-nam`,
    `-ItemList:Artist=${sentinel}-artist`,
    `-UserData:GPSCoordinates=37.5665, 126.978`,
    `-UserData:Author=${sentinel}-udta`,
    `-Keys:Model=${sentinel}-model`,
  ]);
}

/** A phone video: ©xyz location, ©nam, the phone's make and model in Keys, and XMP. */
async function phoneVideo(sentinel: string): Promise<Buffer> {
  return exiftoolWrite('.mp4', plainMp4('isom'), [
    `-UserData:GPSCoordinates=37.5665, 126.978`,
    `-UserData:Title=${sentinel}-nam`,
    `-Keys:Make=${sentinel}-make`,
    `-Keys:Model=${sentinel}-model`,
    `-XMP-dc:Creator=${sentinel}-xmp`,
  ]);
}

/** Every corpus file, built fresh. */
export async function buildCorpus(): Promise<CorpusFile[]> {
  const built: CorpusFile[] = [
    {
      name: 'phone-photo.jpg',
      where: 'EXIF Artist/Model/serial/owner/GPS, maker note, IPTC, XMP, COM',
      bytes: await phoneJpeg(mark('phone-jpeg')),
      outcome: 'removed',
    },
    {
      name: 'iphone.heic',
      where: 'HEIC Exif item (HEIC is not accepted)',
      bytes: phoneHeic(mark('heic')),
      outcome: 'refused',
    },
    {
      name: 'screenshot.png',
      where: 'PNG tEXt, zTXt, iTXt chunks',
      bytes: screenshotPng(mark('png')),
      outcome: 'removed',
    },
    {
      name: 'sticker.webp',
      where: 'WebP EXIF and XMP chunks',
      bytes: await taggedWebp(mark('webp')),
      outcome: 'removed',
    },
    {
      name: 'scan.pdf',
      where: 'a phone JPEG with EXIF as the page image (DCTDecode)',
      bytes: await scannedPdf(mark('scan-pdf')),
      outcome: 'removed',
    },
    {
      name: 'scan-flate.pdf',
      where: 'a phone JPEG under [/FlateDecode /DCTDecode]',
      bytes: await scannedPdf(mark('scan-flate-pdf'), { underFlate: true }),
      outcome: 'removed',
    },
    {
      name: 'attachment.pdf',
      where: '/EmbeddedFiles attachment and a file-attachment annotation',
      bytes: await attachmentPdf(mark('attach-pdf')),
      outcome: 'removed',
    },
    {
      name: 'xmp.pdf',
      where: 'compressed XMP /Metadata on the page and on an image, /PieceInfo',
      bytes: await xmpPdf(mark('xmp-pdf')),
      outcome: 'removed',
    },
    {
      name: 'script.pdf',
      where: '/JavaScript name tree, /OpenAction, page /AA, a /Launch link',
      bytes: await scriptPdf(mark('script-pdf')),
      outcome: 'removed',
    },
    {
      name: 'jpx.pdf',
      where: 'a JPEG 2000 image whose xml box the cleaner does not parse',
      bytes: await jpxPdf(mark('jpx-pdf')),
      outcome: 'unremovable',
    },
    {
      name: 'properties.docx',
      where: 'core.xml, app.xml, custom.xml, the ZIP comment',
      bytes: docxProperties(mark('docx-props')),
      outcome: 'removed',
    },
    {
      name: 'chart.docx',
      where: 'an embedded xlsx with its own core.xml, a pasted JPEG with EXIF',
      bytes: await docxEmbedded(mark('docx-embed')),
      outcome: 'removed',
    },
    {
      name: 'links.docx',
      where: 'file:/// hyperlink, remote picture, INCLUDEPICTURE, INCLUDETEXT, LINK, VML o:href, template',
      bytes: docxLinks(mark('docx-links')),
      outcome: 'removed',
    },
    {
      name: 'ole.docx',
      where: 'OLE object, ActiveX control, macros, printer settings',
      bytes: docxOle(mark('docx-ole')),
      outcome: 'removed',
    },
    {
      name: 'icon.docx',
      where: 'an SVG picture’s <metadata>',
      bytes: docxSvg(mark('docx-svg')),
      outcome: 'removed',
    },
    {
      name: 'tiff.docx',
      where: 'a TIFF picture (a part the cleaner does not understand)',
      bytes: docxTiff(mark('docx-tiff')),
      outcome: 'unremovable',
    },
    {
      name: 'linked.xlsx',
      where: 'externalLinks/_rels externalLinkPath, comment author, core.xml',
      bytes: xlsxExternalLink(mark('xlsx-extlink')),
      outcome: 'removed',
    },
    {
      name: 'deck.pptx',
      where: 'comment authors, modern authors, an embedded docx with an embedded xlsx',
      bytes: pptxComments(mark('pptx')),
      outcome: 'removed',
    },
    {
      name: 'statement.hwpx',
      where: 'content.hpf creator, track-change author, BinData photo EXIF, an OLE object, scripts',
      bytes: await hwpx(mark('hwpx')),
      outcome: 'removed',
    },
    {
      name: 'old.doc',
      where: 'an OLE compound file’s summary information',
      bytes: legacyDoc(mark('doc')),
      outcome: 'unremovable',
    },
    {
      name: 'voice-memo.m4a',
      where: 'M4A ©nam, artist, udta ©xyz and author, Keys model',
      bytes: await voiceMemo(mark('m4a')),
      outcome: 'removed',
    },
    {
      name: 'phone-video.mp4',
      where: 'MP4 udta ©xyz and ©nam, Keys make and model, XMP',
      bytes: await phoneVideo(mark('mp4')),
      outcome: 'removed',
    },
    {
      name: 'memo.txt',
      where: 'nowhere: plain text has no metadata (its content is the evidence)',
      bytes: Buffer.from('3층 회의실에서 팀장이 고성을 질렀다\n'),
      outcome: 'none',
    },
  ];
  // Every type's fixture of the metadata tests, with its shared sentinel in every field its format has.
  for (const fixture of await metadataFixtures()) {
    built.push({
      name: `fixture-${fixture.name}`,
      where: `every metadata field of ${fixture.contentType}`,
      bytes: fixture.bytes,
      outcome: 'removed',
    });
  }
  return built;
}

// Run directly: writes the corpus to a folder to inspect it with other tools.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdir, writeFile } = await import('node:fs/promises');
  const folder = process.argv[2] ?? 'corpus-out';
  await mkdir(folder, { recursive: true });
  for (const file of await buildCorpus()) await writeFile(`${folder}/${file.name}`, file.bytes);
  process.stdout.write(`wrote ${folder}\n`);
}
