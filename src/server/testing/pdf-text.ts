// The text of a PDF as a reader extracts it (PDF.js, the engine of Firefox's viewer): the proof
// that an invoice's text is real text in an embedded font, selectable and searchable, not a
// picture of it. One string per text run, in the order the content stream draws them.
import { PDFDict, PDFDocument, PDFName } from "pdf-lib";
import { getDocument } from "pdfjs-dist/legacy/build/pdf.mjs";

export async function extractPdfText(bytes: Uint8Array): Promise<string[]> {
  const task = getDocument({ data: bytes, useSystemFonts: false });
  const pdf = await task.promise;
  const out: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    for (const item of content.items) {
      if ("str" in item && item.str.trim() !== "") out.push(item.str.trim());
    }
  }
  await task.destroy();
  return out;
}

/** The fonts a PDF describes, and whether each is embedded (a font file inside the PDF). */
export async function pdfFonts(bytes: Uint8Array): Promise<{ name: string; embedded: boolean }[]> {
  const doc = await PDFDocument.load(bytes);
  const fonts: { name: string; embedded: boolean }[] = [];
  for (const [, object] of doc.context.enumerateIndirectObjects()) {
    if (!(object instanceof PDFDict)) continue;
    if (object.get(PDFName.of("Type")) !== PDFName.of("FontDescriptor")) continue;
    const name = object.get(PDFName.of("FontName"));
    fonts.push({
      name: name instanceof PDFName ? name.decodeText() : "",
      embedded: ["FontFile", "FontFile2", "FontFile3"].some((key) => object.has(PDFName.of(key))),
    });
  }
  return fonts.sort((a, b) => a.name.localeCompare(b.name));
}
