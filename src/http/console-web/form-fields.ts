import { html, type SafeHtml } from '../../lib/html.ts';

/**
 * A console form field's error and hint, tied to it by aria-describedby (the job form and its
 * questions): the attributes for the control, and the hint and error to put after it.
 */
export function described(
  errors: Record<string, string>,
  id: string,
  hint?: string,
): { attrs: SafeHtml; after: SafeHtml } {
  const error = errors[id];
  const ids = [error && `${id}-error`, hint && `${id}-hint`].filter(Boolean).join(' ');
  return {
    attrs: html`${ids && html` aria-describedby="${ids}"`}${error && html` aria-invalid="true"`}`,
    after: html`${hint && html`<p class="hint" id="${id}-hint">${hint}</p>`}${error && html`<p class="error" id="${id}-error">${error}</p>`}`,
  };
}
