/**
 * Small real documents written in the test, byte by byte: PDFs (text in the standard
 * Helvetica fonts at given positions, link annotations, an Info dictionary, optionally an
 * encryption dictionary no empty password opens) and DOCX files (a stored ZIP with the
 * WordprocessingML parts mammoth reads). No download, no generator library.
 */
import { crc32 } from 'node:zlib';

export interface PdfText {
  text: string;
  x: number;
  /** Baseline, from the bottom of a 612×792 page. */
  y: number;
  size?: number;
  bold?: boolean;
  /** Covers the text with a link annotation to this URL. */
  link?: string;
}

export interface PdfOptions {
  title?: string;
  author?: string;
  /** An /Encrypt dictionary whose check the empty password fails: a password-protected PDF. */
  encrypted?: boolean;
}

const pdfString = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
/** WinAnsiEncoding's bullet is 0x95, not U+2022's low byte. */
const winAnsi = (s: string) => pdfString(s).replace(/•/g, '\x95');

export function makePdf(pages: PdfText[][], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  // 1 catalog, 2 pages, 3 regular font, 4 bold font, 5 info, then per page: page, content, links
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(''); // pages, filled in below
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>');
  const info = [
    options.title ? `/Title (${pdfString(options.title)})` : '',
    options.author ? `/Author (${pdfString(options.author)})` : '',
  ].join(' ');
  add(`<< ${info} >>`);
  const kids: number[] = [];
  for (const texts of pages) {
    const stream = texts
      .map((t) => {
        const size = t.size ?? 11;
        return `BT /${t.bold ? 'F2' : 'F1'} ${size} Tf ${t.x} ${t.y} Td (${winAnsi(t.text)}) Tj ET`;
      })
      .join('\n');
    const pageNumber = objects.length + 1;
    const contentNumber = pageNumber + 1;
    const annots = texts
      .filter((t) => t.link)
      .map((t) => {
        const size = t.size ?? 11;
        // Helvetica averages about half its size per character
        const right = t.x + t.text.length * size * 0.55;
        return `<< /Type /Annot /Subtype /Link /Rect [${t.x} ${t.y - 2} ${right} ${t.y + size}] /Border [0 0 0] /A << /S /URI /URI (${pdfString(t.link ?? '')}) >> >>`;
      });
    add(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${contentNumber} 0 R${annots.length ? ` /Annots [${annots.join(' ')}]` : ''} >>`,
    );
    add(`<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`);
    kids.push(pageNumber);
  }
  objects[1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  let encrypt = '';
  if (options.encrypted) {
    add(`<< /Filter /Standard /V 1 /R 2 /O <${'a5'.repeat(32)}> /U <${'5a'.repeat(32)}> /P -44 >>`);
    encrypt = ` /Encrypt ${objects.length} 0 R /ID [<${'01'.repeat(16)}> <${'01'.repeat(16)}>]`;
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A stored (uncompressed) ZIP of the given files. */
export function makeZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text, 'utf8');
    const nameBytes = Buffer.from(name, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(centrals.length / 2, 8);
  end.writeUInt16LE(centrals.length / 2, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';

/** A DOCX whose body is the given WordprocessingML (`<w:p>` elements). */
export function makeDocx(bodyXml: string): Buffer {
  return makeZip({
    '[Content_Types].xml': `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>`,
    '_rels/.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    'word/_rels/document.xml.rels': `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'word/styles.xml': `<?xml version="1.0" encoding="UTF-8"?><w:styles xmlns:w="${W}"><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${bodyXml}</w:body></w:document>`,
  });
}
