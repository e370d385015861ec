/**
 * The baseline's PDF check: a warm child process that opens a PDF (its bytes arrive over IPC) with
 * pdf.js and reads the text of every page, as the service's parser children do. Written apart from
 * src/pdf so that the baseline shares no code with the service.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@napi-rs/canvas') throw new Error('no rendering');
    return nextResolve(specifier, context);
  },
});
const warn = console.warn;
console.warn = () => {};
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
console.warn = warn;

process.on('message', async (message: { data: Uint8Array }) => {
  try {
    const data = new Uint8Array(message.data.buffer, message.data.byteOffset, message.data.byteLength);
    const task = pdfjs.getDocument({
      data,
      verbosity: 0,
      useWasm: false,
      disableFontFace: true,
      isOffscreenCanvasSupported: false,
    });
    const doc = await task.promise;
    let chars = 0;
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const text = await page.getTextContent();
      for (const item of text.items) if ('str' in item) chars += item.str.length;
      page.cleanup();
    }
    const pages = doc.numPages;
    await task.destroy();
    process.send?.({ ok: chars > 0, pages });
  } catch (error) {
    if (process.env.BASELINE_DEBUG) console.error(error);
    process.send?.({ ok: false, pages: 0 });
  }
});
