/**
 * Writes small, valid PDF files for tests: pages of a given size in points
 * whose content streams draw what the test needs, with a correct
 * cross-reference table.
 */

export interface PdfPageSpec {
  /** Page size in points (1/72 inch). */
  width: number;
  height: number;
  /** Content stream operators, e.g. `0 g 10 10 20 20 re f` for a black square. */
  content?: string;
  /** The page's /Rotate, a multiple of 90. */
  rotate?: number;
}

export function buildPdf(pages: readonly PdfPageSpec[]): Uint8Array {
  // Objects 1 and 2 are the catalog and page tree; each page is followed by its content stream.
  const objects: string[] = [];
  const kids: number[] = [];
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  for (const [index, page] of pages.entries()) {
    const pageId = 3 + 2 * index;
    const contentId = pageId + 1;
    kids.push(pageId);
    const rotate = page.rotate ? ` /Rotate ${page.rotate}` : '';
    objects[pageId] = `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${page.width} ${page.height}]${rotate} /Contents ${contentId} 0 R /Resources << >> >>`;
    const content = page.content ?? '';
    objects[contentId] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  }
  objects[2] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;

  return pdfFromObjects(objects);
}

/** A PDF of the given objects (numbered from 1; the catalog first), with its cross-reference table. */
export function pdfFromObjects(objects: readonly string[]): Uint8Array {
  let out = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  // Latin-1, one byte per character, so offsets are byte offsets.
  return Uint8Array.from(out, (c) => c.charCodeAt(0));
}
