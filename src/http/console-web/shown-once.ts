import fs from 'node:fs';
import { html, type SafeHtml } from '../../lib/html.ts';
import type { App } from '../types.ts';

/** The copy buttons' script, a static file beside this module, read once at start-up. */
const COPY_SCRIPT = fs.readFileSync(new URL('./assets/copy.js', import.meta.url), 'utf8');
export const COPY_SCRIPT_PATH = '/assets/console-copy.js';

/** GET /assets/console-copy.js: copy buttons (the pages work without it). */
export function copyScriptAsset(app: App): void {
  app.get(COPY_SCRIPT_PATH, { schema: { hide: true } }, async (_request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(COPY_SCRIPT),
  );
}

const SECRET_STYLE = html`<style>input.secret-field{font-family:monospace;width:100%;box-sizing:border-box;font-size:1rem;padding:.5rem;border:1px dashed #8a6d00;background:#fff8d6;border-radius:4px}</style>`;

/**
 * A secret shown this once: in a readonly field (selected on focus, so that it copies by hand), with
 * a copy button the script reveals; its outcome is announced in a live region.
 */
export function secretBox(id: string, heading: string, advice: string, secret: string): SafeHtml {
  return html`${SECRET_STYLE}<section class="card" aria-labelledby="${id}-h"><h2 id="${id}-h">${heading}</h2><p>${advice}</p>
<label for="${id}">Secret</label><input type="text" id="${id}" class="secret-field" readonly value="${secret}" spellcheck="false" autocomplete="off">
<div class="actions"><button type="button" data-copy="${id}" hidden>Copy secret</button><span id="${id}-status" role="status" class="hint"></span></div></section>
<script src="${COPY_SCRIPT_PATH}" defer></script>`;
}

/** What a reload of a secret's page shows: the secret is not kept and cannot be shown again. */
export function alreadyShown(what: string, back: { href: string; label: string }): SafeHtml {
  return html`<section class="card" aria-labelledby="shown-h"><h2 id="shown-h">Already shown</h2><p>${what} was shown once and is not kept, so it cannot be shown again. Nothing new was made. If you did not copy it, make a new one and remove the old one.</p><p><a href="${back.href}">${back.label}</a></p></section>`;
}
