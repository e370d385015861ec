// Child process of the parser pool: opens one PDF at a time with pdf.js and reports its page
// count and text. pdf.js parses on the calling thread in Node, so this process is the sandbox:
// the pool starts it under an OS address-space limit and a V8 heap limit, and kills it at the
// deadline. Nothing here guards against time or memory; that is the parent's job.

import { registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { ParseOutcome, ParseRequest, SandboxProbe, TextDetail, WorkerMessage } from './protocol.ts';
import { addText, emptyStats, hasTextLayer } from './text-layer.ts';
import type { PdfPage, PdfTextItem } from './types.ts';

const NETWORK_MODULES = new Set(['net', 'tls', 'http', 'https', 'http2', 'dgram', 'dns', 'dns/promises']);

// pdf.js loads @napi-rs/canvas at import time to polyfill rendering globals. Text extraction never
// renders, and the native module reserves 1 GiB of address space, which would eat most of the
// headroom under the OS memory limit.
registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === '@napi-rs/canvas') throw new Error('rendering is not used by the CV check');
    if (NETWORK_MODULES.has(specifier.replace(/^node:/, ''))) throw networkRefused(specifier);
    return nextResolve(specifier, context);
  },
});

// No network from here (issue 11, item 7). Node 24's permission model (the pool starts this child
// with --permission: no file outside its code and pdf.js, no process, no thread) does not cover
// sockets, so the modules and globals that open them are refused here, before any PDF is read.
function networkRefused(what: string): Error {
  return Object.assign(new Error(`the PDF parser has no network access (${what})`), {
    code: 'ERR_ACCESS_DENIED',
  });
}
const getBuiltinModule = process.getBuiltinModule.bind(process);
process.getBuiltinModule = ((id: string) => {
  if (NETWORK_MODULES.has(id.replace(/^node:/, ''))) throw networkRefused(id);
  return getBuiltinModule(id);
}) as typeof process.getBuiltinModule;
for (const name of ['fetch', 'WebSocket', 'EventSource', 'XMLHttpRequest']) {
  Object.defineProperty(globalThis, name, {
    configurable: false,
    get: () => {
      throw networkRefused(name);
    },
  });
}

// Its import-time warnings about the missing canvas would bury a real crash in the stderr tail the
// pool keeps for diagnosis.
const consoleWarn = console.warn;
console.warn = () => {};
const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
console.warn = consoleWarn;
const pdfjsRoot = dirname(fileURLToPath(import.meta.resolve('pdfjs-dist/package.json')));

// Caps on what is sent back: a dense 10-page CV has ~5,000 items and ~40,000 characters.
const MAX_ITEMS = 20_000;
const MAX_CHARS = 200_000;
// For a verdict alone ('none'), a page's first 8,000 characters are sample enough (a real CV page
// carries 1,100–1,600): the rest of an absurd page (the long-line CV's 100,000 letters on one
// baseline) is not extracted, which was most of what such a file cost to accept (issue 25).
const VERDICT_CHARS_PER_PAGE = 8_000;

const DOCUMENT_OPTIONS = {
  verbosity: pdfjs.VerbosityLevel.ERRORS,
  // Lenient: a partly damaged CV that still yields text is still a CV; the text check decides.
  stopAtErrors: false,
  // Real PostScript font names (for bold/italic) need this plus an operator list per page.
  fontExtraProperties: true,
  // Images are never decoded for text; 1 pixel also keeps getOperatorList() from decoding them.
  maxImageSize: 1,
  isOffscreenCanvasSupported: false,
  isImageDecoderSupported: false,
  useWasm: false,
  enableXfa: false,
  disableFontFace: true,
  useSystemFonts: false,
  disableAutoFetch: true,
  standardFontDataUrl: join(pdfjsRoot, 'standard_fonts/'),
  cMapUrl: join(pdfjsRoot, 'cmaps/'),
  cMapPacked: true,
};

function send(message: WorkerMessage): void {
  process.send?.(message);
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

const SUBSET_TAG = /^[A-Z]{6}\+/;
const BOLD = /bold|black|heavy|demi/i;
// Adobe's short style suffixes are case-sensitive: MinionPro-It, MinionPro-BoldIt.
const ITALIC = /italic|oblique|slanted/i;
const ITALIC_SUFFIX = /[-,]\w*It$/;

interface FontInfo {
  fontName: string;
  bold: boolean;
  italic: boolean;
}

interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
}

function isTextItem(item: unknown): item is RawTextItem {
  return typeof (item as { str?: unknown }).str === 'string';
}

type PdfDocument = Awaited<ReturnType<typeof pdfjs.getDocument>['promise']>;
type Refusal = Extract<ParseOutcome, { ok: false }>;

/** Opens the PDF, reads each page's text within the caps, and decides whether it has a text layer. */
async function parse(data: Uint8Array, maxPages: number, detail: TextDetail): Promise<ParseOutcome> {
  const task = pdfjs.getDocument({ data, ...DOCUMENT_OPTIONS });
  try {
    const opened = await openDocument(task.promise);
    if ('ok' in opened) return opened;
    const { doc } = opened;
    // Decided from the page tree alone, before any page is read.
    if (doc.numPages < 1) return { ok: false, reason: 'corrupt', error: 'no pages' };
    if (doc.numPages > maxPages) return { ok: false, reason: 'too_many_pages' };
    const stats = emptyStats();
    const text: PdfPage[] = [];
    const sent = { items: 0, chars: 0 };
    for (let pageNumber = 1; pageNumber <= doc.numPages; pageNumber++) {
      const page = await doc.getPage(pageNumber);
      const raw = await readTextItems(page, sent, stats, detail);
      if (detail !== 'none') text.push(await layoutOf(page, raw, detail));
      page.cleanup();
    }
    if (!hasTextLayer(stats, doc.numPages)) return { ok: false, reason: 'no_text_layer' };
    return { ok: true, pages: doc.numPages, text };
  } catch (error) {
    return { ok: false, reason: 'corrupt', error: describe(error) };
  } finally {
    await task.destroy().catch(() => {});
  }
}

/** The document, or why it cannot be opened: a user password (encrypted) or anything else (corrupt). */
async function openDocument(opening: Promise<PdfDocument>): Promise<{ doc: PdfDocument } | Refusal> {
  try {
    return { doc: await opening };
  } catch (error) {
    // NEED_PASSWORD or INCORRECT_PASSWORD: a user password is set. An owner password alone
    // (permissions only) opens with the empty password and never gets here.
    if (error instanceof pdfjs.PasswordException) return { ok: false, reason: 'encrypted' };
    return { ok: false, reason: 'corrupt', error: describe(error) };
  }
}

/**
 * A page's non-blank text items, counted into `stats` (kept only when some detail is asked for),
 * while the whole document's `sent` stays under MAX_ITEMS and MAX_CHARS; past them, pages read none.
 */
async function readTextItems(
  page: PDFPageProxy,
  sent: { items: number; chars: number },
  stats: ReturnType<typeof emptyStats>,
  detail: TextDetail,
): Promise<RawTextItem[]> {
  const raw: RawTextItem[] = [];
  let pageChars = 0;
  const capped = () =>
    sent.items >= MAX_ITEMS ||
    sent.chars >= MAX_CHARS ||
    (detail === 'none' && pageChars >= VERDICT_CHARS_PER_PAGE);
  if (capped()) return raw;
  const reader = page.streamTextContent().getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    for (const item of (value as { items: unknown[] }).items) {
      if (!isTextItem(item) || item.str.trim() === '') continue;
      addText(stats, item.str);
      if (detail !== 'none') raw.push(item);
      sent.items++;
      sent.chars += item.str.length;
      pageChars += item.str.length;
    }
    if (capped()) {
      await reader.cancel(new Error('text cap reached'));
      break;
    }
  }
  return raw;
}

/** The page's size and items relative to its origin, with real font names when 'layout' asks for them. */
async function layoutOf(page: PDFPageProxy, raw: RawTextItem[], detail: TextDetail): Promise<PdfPage> {
  const [x0 = 0, y0 = 0, x1 = 0, y1 = 0] = page.view;
  const fonts =
    detail === 'layout' && raw.length > 0 ? await fontsOf(page, raw) : new Map<string, FontInfo>();
  const items: PdfTextItem[] = raw.map((item) => {
    const font = fonts.get(item.fontName) ?? { fontName: item.fontName, bold: false, italic: false };
    return {
      str: item.str,
      x: round((item.transform[4] ?? 0) - x0),
      y: round((item.transform[5] ?? 0) - y0),
      width: round(item.width),
      height: round(item.height),
      ...font,
    };
  });
  return { width: round(x1 - x0), height: round(y1 - y0), items };
}

// getTextContent() only knows pdf.js's internal font ids (g_d0_f1); the real names arrive with the
// operator list. Without them the items keep the ids and bold/italic stay false.
async function fontsOf(page: PDFPageProxy, items: RawTextItem[]): Promise<Map<string, FontInfo>> {
  const fonts = new Map<string, FontInfo>();
  try {
    await page.getOperatorList({ annotationMode: pdfjs.AnnotationMode.DISABLE });
  } catch {
    return fonts;
  }
  for (const id of new Set(items.map((item) => item.fontName))) {
    if (!page.commonObjs.has(id)) continue;
    const font = page.commonObjs.get(id) as { name?: unknown } | null;
    const name = typeof font?.name === 'string' ? font.name.replace(SUBSET_TAG, '') : '';
    if (name === '') continue;
    fonts.set(id, {
      fontName: name,
      bold: BOLD.test(name),
      italic: ITALIC.test(name) || ITALIC_SUFFIX.test(name),
    });
  }
  return fonts;
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : 'unknown error';
}

// The first document pays for loading pdf.js's worker module and JIT warm-up (~300 ms); do it
// before reporting ready so the first real check is as fast as the rest.
const WARM_UP = `%PDF-1.4
1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj
2 0 obj << /Type /Pages /Kids [3 0 R] /Count 1 >> endobj
3 0 obj << /Type /Page /Parent 2 0 R /MediaBox [0 0 200 100] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >> endobj
4 0 obj << /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold >> endobj
5 0 obj << /Length 44 >> stream
BT /F1 12 Tf 10 50 Td (Warming up) Tj ET
endstream endobj
trailer << /Root 1 0 R >>
%%EOF`;

// pdf.js can leave rejected internal promises behind once a task is destroyed mid-way; they must
// not take down a healthy worker.
process.on('unhandledRejection', () => {});
process.on('disconnect', () => process.exit(0));
process.on('message', (message: ParseRequest | SandboxProbe) => {
  if (message.type === 'probe') void probe(message);
  else void handle(message);
});

// What the pool's tests ask to prove the sandbox from inside: may this child read a path, open a
// socket, start a process? Answers only whether each was refused, never any content.
async function probe(message: SandboxProbe): Promise<void> {
  const attempt = async (action: () => Promise<unknown>): Promise<string> => {
    try {
      await action();
      return 'allowed';
    } catch (error) {
      return String((error as { code?: unknown }).code ?? (error as Error).name);
    }
  };
  const fs = await import('node:fs/promises');
  send({
    type: 'probe',
    id: message.id,
    read: await attempt(() => fs.readFile(message.path)),
    connect: await attempt(async () => {
      const net = await import('node:net');
      net.connect(1, '127.0.0.1').destroy();
    }),
    fetch: await attempt(() => fetch('http://127.0.0.1:1/')),
    spawn: await attempt(async () => {
      const cp = await import('node:child_process');
      cp.spawnSync('/bin/true');
    }),
  });
}

async function handle(request: ParseRequest): Promise<void> {
  let outcome: ParseOutcome;
  try {
    // A Buffer arrives as a Buffer (structured clone keeps its class); pdf.js wants a plain view.
    const { buffer, byteOffset, byteLength } = request.data;
    outcome = await parse(
      new Uint8Array(buffer, byteOffset, byteLength),
      request.maxPages,
      request.detail ?? 'layout',
    );
  } catch (error) {
    outcome = { ok: false, reason: 'corrupt', error: describe(error) };
  }
  send({ type: 'result', id: request.id, outcome, rssMb: Math.round(process.memoryUsage.rss() / 1_048_576) });
}

await parse(new TextEncoder().encode(WARM_UP), 1, 'layout');
send({ type: 'ready' });
