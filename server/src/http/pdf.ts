import { existsSync } from 'node:fs';
import type { FastifyReply } from 'fastify';

/**
 * A font that holds Chinese: PDF's standard fonts have Latin-1 only. SITEWATCH_PDF_FONT names a .ttf,
 * .otf or .ttc (a collection needs the face's PostScript name after a '#': `…/x.ttc#Face`); else the
 * first of the Debian fonts found. Collections are read by fontkit, which pdfkit uses (docs/inspection-duty.md).
 */
const candidates = [
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc#WenQuanYiZenHei',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc#WenQuanYiMicroHei',
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc#NotoSansCJKsc-Regular',
  '/usr/share/fonts/truetype/arphic/uming.ttc#AR-PL-UMing-CN',
];
export const pdfFont = (): { file: string; face?: string } | null => {
  for (const spec of [process.env.SITEWATCH_PDF_FONT, ...candidates]) {
    if (!spec) continue;
    const [file = '', face] = spec.split('#');
    if (existsSync(file)) return face ? { file, face } : { file };
  }
  return null;
};

export interface PdfTable {
  title: string;
  /** Label and value lines under the title. */
  meta: [string, string][];
  columns: { header: string; width: number }[];
  rows: string[][];
}

const margin = 40;

/** A titled A4 document of label lines and one table that runs over pages (the report exports). */
export const tablePdf = async (doc: PdfTable, font: { file: string; face?: string }): Promise<Buffer> => {
  // pdfkit is loaded at the first PDF (~6 MB of heap otherwise kept by every server).
  const { default: PDFDocument } = await import('pdfkit');
  const pdf = new PDFDocument({ size: 'A4', margin, info: { Title: doc.title, Producer: 'Sitewatch' } });
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  pdf.registerFont('text', font.file, font.face);
  pdf.font('text');
  pdf.fontSize(16).text(doc.title);
  pdf.moveDown(0.5).fontSize(10);
  for (const [label, value] of doc.meta) pdf.text(`${label}: ${value}`);
  pdf.moveDown();

  const widths = doc.columns.map((c) => c.width);
  const total = widths.reduce((a, b) => a + b, 0);
  const room = pdf.page.width - 2 * margin;
  const scaled = widths.map((w) => (w / total) * room);
  const pad = 3;
  const bottom = () => pdf.page.height - margin;
  const row = (cells: string[], bold: boolean) => {
    pdf.fontSize(9);
    const height =
      Math.max(...cells.map((c, i) => pdf.heightOfString(c || ' ', { width: scaled[i]! - 2 * pad }))) + 2 * pad;
    if (pdf.y + height > bottom()) pdf.addPage();
    const y = pdf.y;
    let x = margin;
    cells.forEach((c, i) => {
      const w = scaled[i]!;
      if (bold) pdf.rect(x, y, w, height).fillAndStroke('#eeeeee', '#999999').fillColor('black');
      else pdf.rect(x, y, w, height).stroke('#999999');
      pdf.text(c, x + pad, y + pad, { width: w - 2 * pad });
      x += w;
    });
    pdf.x = margin;
    pdf.y = y + height;
  };
  row(
    doc.columns.map((c) => c.header),
    true,
  );
  for (const r of doc.rows) row(r, false);
  pdf.end();
  return done;
};

/** Sends a PDF as a download named `filename`. */
export const sendPdf = (reply: FastifyReply, filename: string, buffer: Buffer) =>
  reply
    .header('content-type', 'application/pdf')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .send(buffer);
