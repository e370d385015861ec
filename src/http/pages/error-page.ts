import type { FastifyReply } from 'fastify';
import type { AppError } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import { APPLY_WORDS } from './apply/apply-words.ts';
import { PAGE_WORDS, type PageLang } from './i18n.ts';
import { sendPage } from './page-shell.ts';

/**
 * How a page is framed: the hosted page shell in a language, or the console's layout (signed in or
 * not). The frame writes the title as the page's h1 and `body` under it.
 */
export type PageFrame = (reply: FastifyReply, status: number, title: string, body: SafeHtml) => FastifyReply;

/** What an error page says: a title for the status, and the message under it (none: the title only). */
export type ErrorWords = (error: AppError) => { title: string; message: string | null };

/**
 * The one mapping of an AppError to a page, for the hosted pages and the console: the error's
 * status (and its Retry-After), a title, the message (as an alert where the caller asks), and a way
 * back when there is one. The caller chooses the frame and the words (the console's English, the
 * page's language).
 */
export function sendErrorPage(
  reply: FastifyReply,
  error: AppError,
  frame: PageFrame,
  words: ErrorWords,
  options: { alert?: boolean; back?: { href: string; label: string } } = {},
): FastifyReply {
  if (error.retryAfterSeconds) reply.header('retry-after', String(error.retryAfterSeconds));
  const { title, message } = words(error);
  const text =
    message !== null &&
    (options.alert ? html`<p class="alert" role="alert">${message}</p>` : html`<p>${message}</p>`);
  const back = options.back && html`<p><a href="${options.back.href}">${options.back.label}</a></p>`;
  return frame(reply, error.status, title, html`${text}${back}`);
}

/** The hosted pages' frame: the page shell in the page's language, the title as its h1. */
export function hostedFrame(lang: PageLang): PageFrame {
  return (reply, status, title, body) => sendPage(reply, status, lang, title, html`<h1>${title}</h1>${body}`);
}

/** The hosted pages' words for an error, in the page's language (the API's English message is not shown). */
export function hostedErrorWords(lang: PageLang): ErrorWords {
  const w = PAGE_WORDS[lang];
  return (error) => {
    if (error.status === 404) return { title: w.notFound, message: w.notFoundBody };
    if (error.status === 410) return { title: w.closedTitle, message: w.closedBody };
    if (error.status === 429) return { title: w.tooMany, message: null };
    return { title: APPLY_WORDS[lang].tryAgain, message: null };
  };
}

/** An AppError as a hosted page (404, 410, 429…) in the page's language. */
export function hostedErrorPage(reply: FastifyReply, lang: PageLang, error: AppError): FastifyReply {
  return sendErrorPage(reply, error, hostedFrame(lang), hostedErrorWords(lang));
}
