// An invoice, credit note or quote as a PDF (pdf-lib): the printable text of the HTML page
// (domain/invoices/printable.ts), laid out on A4 in DejaVu Sans, embedded (subset) so that any
// reader shows the same glyphs and the text can be selected, searched and extracted.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import fontkit from "@pdf-lib/fontkit";
import { PDFDocument, type PDFFont, type PDFPage, rgb } from "pdf-lib";
import type { Block, Printable } from "../../domain/invoices/printable.ts";

const require = createRequire(import.meta.url);

let fonts: { regular: Uint8Array; bold: Uint8Array } | null = null;
/** The font files, read once (from the dejavu-fonts-ttf package: the same on every machine). */
function fontBytes(): { regular: Uint8Array; bold: Uint8Array } {
  fonts ??= {
    regular: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans.ttf")),
    bold: readFileSync(require.resolve("dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf")),
  };
  return fonts;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 50;
const WIDTH = A4[0] - 2 * MARGIN;
const GREY = rgb(0.4, 0.4, 0.4);
const INK = rgb(0.1, 0.1, 0.1);

type Pen = { page: PDFPage; y: number };

class Layout {
  private pen: Pen;
  private readonly doc: PDFDocument;
  private readonly regular: PDFFont;
  private readonly bold: PDFFont;
  constructor(doc: PDFDocument, regular: PDFFont, bold: PDFFont) {
    this.doc = doc;
    this.regular = regular;
    this.bold = bold;
    this.pen = { page: doc.addPage(A4), y: A4[1] - MARGIN };
  }
  private room(height: number): void {
    if (this.pen.y - height < MARGIN) this.pen = { page: this.doc.addPage(A4), y: A4[1] - MARGIN };
  }
  /** Lines of `text` no wider than `width` (words wrapped; a word longer than a line is cut). */
  wrap(text: string, width: number, size: number, font = this.regular): string[] {
    const lines: string[] = [];
    let line = "";
    for (const word of text.split(/\s+/).filter(Boolean)) {
      const next = line ? `${line} ${word}` : word;
      if (font.widthOfTextAtSize(next, size) <= width || !line) line = next;
      else {
        lines.push(line);
        line = word;
      }
    }
    if (line) lines.push(line);
    return lines.length ? lines : [""];
  }
  text(
    text: string,
    options: { size?: number; bold?: boolean; x?: number; width?: number; grey?: boolean } = {},
  ) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.regular;
    for (const line of this.wrap(text, options.width ?? WIDTH, size, font)) {
      this.room(size * 1.4);
      this.pen.page.drawText(line, {
        x: options.x ?? MARGIN,
        y: this.pen.y - size,
        size,
        font,
        color: options.grey ? GREY : INK,
      });
      this.pen.y -= size * 1.4;
    }
  }
  gap(points: number): void {
    this.pen.y -= points;
  }
  /** One table row: the first cell wraps at the left, the others are right-aligned columns. */
  row(cells: string[], widths: number[], options: { bold?: boolean; size?: number } = {}) {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.regular;
    const first = this.wrap(cells[0] ?? "", (widths[0] ?? WIDTH) - 8, size, font);
    this.room(first.length * size * 1.4 + 4);
    const top = this.pen.y;
    first.forEach((line, i) => {
      this.pen.page.drawText(line, {
        x: MARGIN,
        y: top - size - i * size * 1.4,
        size,
        font,
        color: INK,
      });
    });
    let right = MARGIN + (widths[0] ?? 0);
    cells.slice(1).forEach((cell, i) => {
      right += widths[i + 1] ?? 0;
      const w = font.widthOfTextAtSize(cell, size);
      this.pen.page.drawText(cell, { x: right - w, y: top - size, size, font, color: INK });
    });
    this.pen.y = top - first.length * size * 1.4 - 3;
    this.pen.page.drawLine({
      start: { x: MARGIN, y: this.pen.y + 1 },
      end: { x: MARGIN + WIDTH, y: this.pen.y + 1 },
      thickness: 0.5,
      color: rgb(0.8, 0.8, 0.8),
    });
    this.pen.y -= 3;
  }
  /** Two blocks of lines side by side (seller and buyer). */
  columns(left: Block & { kind: "party" }, right: Block & { kind: "party" }) {
    const half = WIDTH / 2 - 10;
    const start = this.pen.y;
    this.text(left.heading, { bold: true, width: half });
    for (const line of left.lines) this.text(line, { width: half });
    const leftEnd = this.pen.y;
    this.pen.y = start;
    this.text(right.heading, { bold: true, x: MARGIN + WIDTH / 2 + 10, width: half });
    for (const line of right.lines) this.text(line, { x: MARGIN + WIDTH / 2 + 10, width: half });
    this.pen.y = Math.min(leftEnd, this.pen.y);
  }
}

export async function printablePdf(p: Printable, meta: { author: string }): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const bytes = fontBytes();
  const regular = await doc.embedFont(bytes.regular, { subset: true });
  const bold = await doc.embedFont(bytes.bold, { subset: true });
  doc.setTitle(p.title);
  doc.setAuthor(meta.author);
  doc.setLanguage("en");
  const out = new Layout(doc, regular, bold);
  out.text(p.title, { size: 18, bold: true });
  out.gap(8);
  const parties = p.blocks.filter((b): b is Block & { kind: "party" } => b.kind === "party");
  const [seller, buyer] = parties;
  if (seller && buyer) out.columns(seller, buyer);
  else
    for (const party of parties) {
      out.text(party.heading, { bold: true });
      for (const line of party.lines) out.text(line);
    }
  for (const b of p.blocks) {
    if (b.kind === "party") continue;
    out.gap(10);
    if (b.kind === "facts") {
      for (const [k, v] of b.rows) out.row([k, v], [WIDTH * 0.4, WIDTH * 0.6]);
    } else if (b.kind === "lines") {
      out.text(b.heading, { bold: true, size: 12 });
      out.row(b.columns, [WIDTH * 0.75, WIDTH * 0.25], { bold: true });
      for (const row of b.rows) out.row(row, [WIDTH * 0.75, WIDTH * 0.25]);
    } else if (b.kind === "taxes") {
      out.text(b.heading, { bold: true, size: 12 });
      const widths = [WIDTH * 0.4, WIDTH * 0.15, WIDTH * 0.225, WIDTH * 0.225];
      out.row(b.columns, widths, { bold: true });
      for (const row of b.rows) out.row(row, widths);
    } else if (b.kind === "totals") {
      for (const [k, v] of b.rows) out.row([k, v], [WIDTH * 0.75, WIDTH * 0.25], { bold: true });
    } else {
      for (const line of b.lines) out.text(line, { size: 9, grey: true });
    }
  }
  return doc.save();
}
