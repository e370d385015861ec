import type { FastifyReply } from 'fastify';
import { can, type Right, ROLE_LABELS } from '../../domain/console-users/rights.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import type { AppError } from '../../domain/errors.ts';
import { type HtmlValue, html, type SafeHtml } from '../../lib/html.ts';
import { type ErrorWords, type PageFrame, sendErrorPage } from '../pages/error-page.ts';
import { sendPage } from '../pages/page-shell.ts';

const STYLE = html`<style>main{max-width:72rem}header.console{max-width:72rem;margin:0 auto;padding:1rem 1rem 0;overflow-wrap:anywhere}
header.console+main{padding-top:.5rem}.bar{display:flex;flex-wrap:wrap;justify-content:space-between;align-items:center;gap:0 1rem;border-bottom:1px solid #ddd;padding-bottom:.5rem}.bar p{margin:.25rem 0}
.skip{position:absolute;left:-10000px;top:.5rem}.skip:focus{left:.5rem;z-index:1;background:#fff;padding:.5rem .75rem;border-radius:6px}
nav.console ul{list-style:none;padding:0;margin:.5rem 0;display:flex;flex-wrap:wrap;gap:.25rem .5rem}nav.console a{display:inline-block;padding:.35rem .6rem;border-radius:6px;color:#1b1b1f}
nav.console a[aria-current=page]{background:#1b1b1f;color:#fff}.flash{padding:.75rem 1rem;border-radius:6px;margin:1rem 0}.flash.ok{background:#e6f4ea;border:1px solid #1e7b34}
.flash.error{background:#fde8e8;border:1px solid #a40000}table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.5rem;border-bottom:1px solid #ddd;vertical-align:top;overflow-wrap:break-word}
.scroll{overflow-x:auto}form.inline{display:inline}form.inline button{padding:.35rem .7rem;margin:.15rem 0}select,input[type=number],input[type=password],input[type=date],input[type=month]{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:4px;max-width:100%;box-sizing:border-box}
input[type=password]{width:100%}fieldset{border:1px solid #ddd;border-radius:6px;margin:1rem 0;background:#fff}label.check{font-weight:400;margin-top:.25rem}
.card{background:#fff;border:1px solid #ddd;border-radius:8px;padding:1rem 1.25rem;margin:1rem 0}.secret{font-family:monospace;font-size:1.05rem;background:#fff8d6;padding:.5rem;border:1px dashed #8a6d00;word-break:break-all}
button.danger{background:#fff;color:#a40000;border-color:#a40000}select:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}.diff del{background:#fde8e8}.diff ins{background:#e6f4ea;text-decoration:none}
ul.reasons{margin:.25rem 0}td ul,td ul.reasons{margin:0 0 .25rem;padding-left:1.1rem}ul.reasons.missing{color:#a40000}.score{font-size:1.1rem;font-weight:700}
.match .score{font-size:1.75rem}.match h3{margin-top:.75rem}.card>h2:first-child,section.cv>:first-child{margin-top:0}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dl.facts dt{font-weight:600}
@media (max-width:40rem){table.stack thead{position:absolute;left:-10000px}table.stack tr{display:block;border-bottom:2px solid #ddd;padding:.4rem 0}
table.stack td,table.stack tbody th{display:block;border:0;padding:.15rem .5rem}table.stack td[data-label]::before{content:attr(data-label) ": ";font-weight:600}}</style>`;

/** A table cell: data (a td), or the row's own heading (`{ th }`), or a td with a class. */
export type Cell = HtmlValue | { th: HtmlValue } | { td: HtmlValue; class: string };

function cell(value: Cell, label: string): SafeHtml {
  if (value !== null && typeof value === 'object' && 'th' in value)
    return html`<th scope="row">${value.th}</th>`;
  if (value !== null && typeof value === 'object' && 'td' in value)
    return html`<td class="${value.class}" data-label="${label}">${value.td}</td>`;
  return html`<td data-label="${label}">${value as HtmlValue}</td>`;
}

/**
 * A table that reads as cards at phone width: each data cell is labelled with its column's
 * heading (a CSS ::before from data-label), so nothing scrolls sideways. `scroll` wraps it in a
 * box that scrolls sideways on its own when the cards are off (wide screens).
 */
export function dataTable(table: {
  columns: readonly string[];
  rows: readonly (readonly Cell[])[];
  caption?: SafeHtml;
  scroll?: boolean;
}): SafeHtml {
  const head = table.columns.map((column) => html`<th scope="col">${column}</th>`);
  const rows = table.rows.map(
    (row) => html`<tr>${row.map((value, index) => cell(value, table.columns[index] ?? ''))}</tr>`,
  );
  const element = html`<table class="stack">${table.caption}<thead><tr>${head}</tr></thead><tbody>${rows}</tbody></table>`;
  return table.scroll === false ? element : html`<div class="scroll">${element}</div>`;
}

const NAV: { href: string; label: string; right: Right; key: string }[] = [
  { href: '/console', label: 'Home', right: 'jobs', key: 'home' },
  { href: '/console/jobs', label: 'Jobs', right: 'jobs', key: 'jobs' },
  { href: '/console/screening', label: 'Screening', right: 'screening', key: 'screening' },
  { href: '/console/billing', label: 'Billing', right: 'billing', key: 'billing' },
  { href: '/console/keys', label: 'API keys', right: 'keys', key: 'keys' },
  { href: '/console/webhooks', label: 'Webhooks', right: 'keys', key: 'webhooks' },
  { href: '/console/settings', label: 'Settings', right: 'settings', key: 'settings' },
  { href: '/console/privacy', label: 'Data protection', right: 'settings', key: 'privacy' },
  { href: '/console/users', label: 'Users', right: 'users', key: 'users' },
  { href: '/console/activity', label: 'Activity', right: 'activity', key: 'activity' },
  { href: '/console/security', label: 'Your security', right: 'self', key: 'security' },
];

/** The first page a role may open: where /console and a fresh sign-in lead. */
export function homeOf(session: ConsoleSession): string {
  return NAV.find((item) => can(session.role, item.right))?.href ?? '/console/login';
}

export function csrfField(session: ConsoleSession): SafeHtml {
  return html`<input type="hidden" name="csrf" value="${session.csrf}">`;
}

/** A one-button form posting to `path` (with the session's CSRF token). */
export function buttonForm(
  session: ConsoleSession,
  path: string,
  label: string,
  danger = false,
  /** Read by screen readers after the label (which item the button acts on), not shown. */
  hiddenSuffix = '',
): SafeHtml {
  const suffix = hiddenSuffix && html`<span class="hp"> ${hiddenSuffix}</span>`;
  return html`<form class="inline" method="post" action="${path}">${csrfField(session)}<button type="submit"${danger && html` class="danger"`}>${label}${suffix}</button></form>`;
}

export function renderConsole(
  reply: FastifyReply,
  session: ConsoleSession,
  page: {
    title: string;
    active?: string;
    body: SafeHtml;
    flash?: { kind: string; text: string } | null;
    status?: number;
    /** A page's own styles (after the console's). */
    head?: SafeHtml;
  },
): FastifyReply {
  const nav = NAV.filter((item) => can(session.role, item.right)).map(
    (item) =>
      html`<li><a href="${item.href}"${item.key === page.active && html` aria-current="page"`}>${item.label}</a></li>`,
  );
  const ok = page.flash?.kind === 'ok';
  const flash =
    page.flash &&
    html`<div class="flash ${ok ? 'ok' : 'error'}" role="${ok ? 'status' : 'alert'}">${page.flash.text}</div>`;
  // The banner and the navigation sit before <main>, so that a screen reader's landmarks are the
  // page's own; the skip link (shown when focused) is the first stop of the keyboard.
  const header = html`<a class="skip" href="#main">Skip to content</a><header class="console"><div class="bar"><p><strong>Careers console</strong></p><p class="muted">${session.email} · ${ROLE_LABELS[session.role]}</p>${buttonForm(session, '/console/logout', 'Sign out')}</div><nav class="console" aria-label="Console"><ul>${nav}</ul></nav></header>`;
  return sendPage(
    reply,
    page.status ?? 200,
    'en',
    `${page.title} · Careers console`,
    html`${flash}<h1>${page.title}</h1>${page.body}`,
    { head: html`${STYLE}${page.head}`, before: header },
  );
}

/** A page for a signed-out visitor (sign-in, invitation). */
export function renderPublic(
  reply: FastifyReply,
  status: number,
  title: string,
  body: SafeHtml,
): FastifyReply {
  return sendPage(reply, status, 'en', `${title} · Careers console`, html`<h1>${title}</h1>${body}`, {
    head: STYLE,
  });
}

/** The console's error pages: a title for the status, the message as the domain wrote it. */
const CONSOLE_ERROR_WORDS: ErrorWords = (error) => ({
  title: error.status === 403 ? 'Not allowed' : error.status === 404 ? 'Not found' : 'Something went wrong',
  message: error.message,
});

/** An AppError as a console page: in the console's layout when signed in, else the public one. */
export function consoleError(
  reply: FastifyReply,
  session: ConsoleSession | null,
  error: AppError,
): FastifyReply {
  const frame: PageFrame =
    session === null
      ? renderPublic
      : (to, code, title, body) => renderConsole(to, session, { title, body, status: code });
  return sendErrorPage(reply, error, frame, CONSOLE_ERROR_WORDS, {
    alert: true,
    back: { href: '/console', label: 'Back to the console' },
  });
}

export function when(iso: string | null | undefined): SafeHtml {
  if (!iso) return html`—`;
  return html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')} UTC</time>`;
}

export function money(cents: number | null, currency: string | null): string {
  if (cents === null) return '—';
  return `${(cents / 100).toFixed(2)} ${currency ?? ''}`.trim();
}
