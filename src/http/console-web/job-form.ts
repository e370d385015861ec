import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type * as AjvModule from 'ajv';
import type AddFormats from 'ajv-formats';
import { CATEGORIES, EMPLOYMENT_TYPES, JobCreate, JobEdit, REMOTE_POLICIES } from '../../contract/job.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { badRequest } from '../../domain/errors.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import { csrfField } from './layout.ts';
import type { Form } from './web.ts';

// The same schemas the API validates with: a form can send nothing the API would refuse. Compiled
// (and Ajv loaded) on the first form sent, not at every start (issue 14).
let validators: { create: Validate; edit: Validate } | null = null;
function validatorsOnce(): { create: Validate; edit: Validate } {
  if (validators !== null) return validators;
  const load = createRequire(import.meta.url);
  const { Ajv } = load('ajv') as typeof AjvModule;
  const addFormats = load('ajv-formats') as typeof AddFormats;
  const ajv = new Ajv({ allErrors: false, removeAdditional: false, coerceTypes: false, strict: false });
  addFormats.default(ajv);
  validators = { create: ajv.compile<unknown>(JobCreate), edit: ajv.compile(JobEdit) };
  return validators;
}

type Words = Record<string, unknown>;
const LABELS: Record<string, string> = {
  title: 'Title',
  category: 'Category',
  description: 'Description',
  employmentType: 'Employment type',
  location: 'Location',
  maxMatches: 'Most matches',
};

type Validate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

function check(valid: Validate, body: Record<string, unknown>): void {
  if (valid(body)) return;
  const issue = valid.errors?.[0];
  const field = issue?.instancePath.split('/').filter(Boolean)[0] ?? 'title';
  throw badRequest(`${LABELS[field] ?? field}: ${issue?.message ?? 'is not valid'}.`, { field });
}

/** The words a job form posts, read into the API's shape; blank optional fields are left out. */
function wordsOf(form: Form, base: Words): Words {
  const words: Words = { title: form.get('title').trim() };
  const description = form.get('description');
  if (description.trim() !== '') words.description = description;
  const category = form.get('category');
  if (category !== '') words.category = category;
  const employment = form.get('employmentType');
  words.employmentType = employment === '' ? null : employment;
  const location: Record<string, unknown> = {
    ...((base.location as Record<string, unknown> | undefined) ?? {}),
  };
  for (const part of ['city', 'country', 'remotePolicy'] as const) {
    const value = form.get(part).trim();
    if (value === '') delete location[part];
    else location[part] = value;
  }
  words.location = Object.keys(location).length === 0 ? null : location;
  return words;
}

function maxMatchesOf(form: Form): number | null {
  const text = form.get('maxMatches').trim();
  if (text === '') return null;
  if (!/^\d{1,7}$/.test(text))
    throw badRequest('Most matches must be a whole number, or empty for no cap.', { field: 'maxMatches' });
  return Number(text);
}

export function createBody(form: Form): JobCreate {
  const body: Record<string, unknown> = { ...wordsOf(form, {}), maxMatches: maxMatchesOf(form) };
  if (body.employmentType === null) delete body.employmentType;
  if (body.location === null) delete body.location;
  check(validatorsOnce().create, body);
  return body as JobCreate;
}

/** Only what the form changed against the words it showed (staged words when there are some). */
export function editBody(form: Form, shown: Words, maxMatches: number | null): JobEdit {
  const sent = wordsOf(form, shown);
  const body: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(sent)) {
    if (!isDeepStrictEqual(value ?? null, shown[field] ?? null)) body[field] = value;
  }
  const matches = maxMatchesOf(form);
  if (matches !== maxMatches) body.maxMatches = matches;
  check(validatorsOnce().edit, body);
  return body as JobEdit;
}

const options = (values: readonly string[], current: unknown, blank: string | null) =>
  html`${blank !== null && html`<option value="">${blank}</option>`}${values.map(
    (value) =>
      html`<option value="${value}"${value === current && html` selected`}>${value.replaceAll('_', ' ')}</option>`,
  )}`;

/** A form value as the form shows it: a string, or nothing. */
const shown = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';

/** The job form: the words a recruiter writes, and the match cap. */
export function jobForm(
  session: ConsoleSession,
  target: string,
  words: Words,
  maxMatches: number | null,
  submit: string,
): SafeHtml {
  const location = (words.location as Record<string, unknown> | undefined) ?? {};
  return html`<form method="post" action="${target}">${csrfField(session)}
<label for="title">Title</label><input type="text" id="title" name="title" required maxlength="200" value="${shown(words.title)}">
<label for="category">Category</label><select id="category" name="category">${options(CATEGORIES, words.category, 'Choose a category')}</select>
<label for="description">Description</label><textarea id="description" name="description" rows="8" aria-describedby="description-hint">${shown(words.description)}</textarea>
<p class="hint" id="description-hint">Plain text or simple HTML (paragraphs, lists, links).</p>
<label for="employmentType">Employment type</label><select id="employmentType" name="employmentType">${options(EMPLOYMENT_TYPES, words.employmentType, 'Not said')}</select>
<label for="city">City</label><input type="text" id="city" name="city" maxlength="200" value="${shown(location.city)}">
<label for="country">Country</label><input type="text" id="country" name="country" maxlength="200" value="${shown(location.country)}">
<label for="remotePolicy">Where the work is done</label><select id="remotePolicy" name="remotePolicy">${options(REMOTE_POLICIES, location.remotePolicy, 'Not said')}</select>
<label for="maxMatches">Most matches</label><input type="number" id="maxMatches" name="maxMatches" min="1" max="1000000" value="${maxMatches ?? ''}" aria-describedby="matches-hint">
<p class="hint" id="matches-hint">Stop suggesting candidates once this many matches exist; empty for no cap.</p>
<div class="actions"><button type="submit">${submit}</button></div></form>`;
}
