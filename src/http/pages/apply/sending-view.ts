import { html, type SafeHtml } from '../../../lib/html.ts';
import { PAGE_WORDS, type PageLang } from '../i18n.ts';
import { APPLY_WORDS } from './apply-words.ts';

/** The sending controls' styles: a busy button, the upload bar. */
export const SENDING_STYLE = html`<style>button[aria-disabled=true]{opacity:.7;cursor:progress}
.upload{margin:.5rem 0}.upload label{display:block;font-weight:600}.upload progress{display:block;width:100%;height:1.1rem;margin:.25rem 0;accent-color:#1b1b1f}
#apply-status.failed{color:#a40000;font-weight:600}</style>`;

/**
 * The form's button and what the page's script shows while sending (apply.js): the button's
 * busy label, the upload's progress bar with its percentage in a polite live region, the status
 * line (a polite live region too). The words ride on data attributes, so the script carries none.
 * Past a burst (`powBits` > 0) a browser without JavaScript is told the answer takes a few seconds.
 */
export function sendingControls(lang: PageLang, powBits: number): SafeHtml {
  const w = PAGE_WORDS[lang];
  const aw = APPLY_WORDS[lang];
  const noScript =
    powBits > 0 && html`<noscript><p class="alert" id="apply-burst">${aw.burstNoScript}</p></noscript>`;
  return html`${noScript}<p><button type="submit" id="apply-submit" data-sending="${aw.sending}" data-checking="${aw.checking}" data-failed="${aw.sendFailed}">${w.submit}</button></p><div class="upload" id="apply-upload" hidden><label for="apply-upload-bar">${aw.uploading}</label><progress id="apply-upload-bar" max="100" value="0"></progress><p class="hint" id="apply-upload-text" aria-live="polite" data-words="${aw.uploaded}"></p></div><p class="hint" id="apply-status" role="status" aria-live="polite"></p>`;
}
