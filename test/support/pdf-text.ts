import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// pdf.js asks for Promise.withResolvers, which Node has from 22 on; the project supports 20.
const promise = Promise as unknown as { withResolvers?: unknown };
promise.withResolvers ??= function withResolvers<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const made = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise: made, resolve, reject };
};

const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
// The metrics of the PDF standard fonts (Helvetica): pdf.js reads them from its package folder.
const standardFontDataUrl = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

/** The text of every page of a PDF, as pdf.js extracts it (lines joined by spaces). */
export async function pdfText(bytes: Uint8Array): Promise<string> {
  const task = getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, standardFontDataUrl });
  const document = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= document.numPages; n++) {
    const page = await document.getPage(n);
    const content = await page.getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '));
  }
  await task.destroy();
  return pages.join('\n');
}
