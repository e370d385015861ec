import { createRequire } from 'node:module';
import { isDeepStrictEqual } from 'node:util';
import type * as AjvModule from 'ajv';
import type AddFormats from 'ajv-formats';
import { JobCreate, JobEdit, MAX } from '../../contract/job.ts';
import {
  type QuestionRow,
  questionField,
  questionMessage,
  questionsOfRows,
  rowsOfForm,
  rowsOfQuestions,
  ruleErrors,
  sameQuestions,
} from './question-editor.ts';
import type { Form } from './web.ts';
import { humanise } from './words.ts';

// The job form's reading side: its state from a job's words or a posted form, and the JobCreate /
// JobEdit body it makes, checked by the API's own schemas (job-form.ts renders it).

// The same schemas the API validates with: a form can send nothing the API would refuse. Compiled
// (and Ajv loaded) on the first form sent, not at every start (issue 14).
type Validate = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string; keyword?: string; params?: unknown }[] | null;
};
let validators: { create: Validate; edit: Validate } | null = null;
function validatorsOnce(): { create: Validate; edit: Validate } {
  if (validators !== null) return validators;
  const load = createRequire(import.meta.url);
  const { Ajv } = load('ajv') as typeof AjvModule;
  const addFormats = load('ajv-formats') as typeof AddFormats;
  const ajv = new Ajv({ allErrors: true, removeAdditional: false, coerceTypes: false, strict: false });
  addFormats.default(ajv);
  validators = { create: ajv.compile<unknown>(JobCreate), edit: ajv.compile(JobEdit) };
  return validators;
}

type Words = Record<string, unknown>;

/** One row of the skills fieldset. */
export interface SkillRow {
  name: string;
  level: string;
}

/**
 * The job form as shown: every field's text as typed (kept after an error), the skill rows, and
 * the errors by field id. Built from a job's words, or from a form sent back.
 */
export interface JobFormState {
  values: Record<string, string>;
  skills: SkillRow[];
  /** The questions fieldset's rows (question-editor.ts). */
  questions: QuestionRow[];
  errors: Record<string, string>;
  /** The field to put the keyboard on when the form comes back (after a question button). */
  focus?: string;
}

/** Blank skill rows offered below the job's own (more on "Add skill rows"). */
export const BLANK_SKILLS = 3;
export const SALARY_PERIODS = ['year', 'month', 'week', 'day', 'hour'] as const;
const TEXT_FIELDS = [
  'title',
  'category',
  'seniority',
  'yearsExperience',
  'workStyle',
  'description',
  'responsibilities',
  'benefits',
  'salaryMin',
  'salaryMax',
  'salaryCurrency',
  'salaryPeriod',
  'city',
  'state',
  'country',
  'remotePolicy',
  'onsiteDays',
  'employmentType',
  'contractType',
  'expiresOn',
  'maxMatches',
] as const;

const str = (value: unknown): string =>
  typeof value === 'string' || typeof value === 'number' ? String(value) : '';
const obj = (value: unknown): Record<string, unknown> =>
  value !== null && typeof value === 'object' ? (value as Record<string, unknown>) : {};

/** The form of a job's words (staged ones when there are some) and its controls. */
export function stateOfWords(
  words: Words,
  controls: { maxMatches: number | null; expiresAt?: string | null } = { maxMatches: null },
): JobFormState {
  const salary = obj(words.salary);
  const location = obj(words.location);
  const lines = (value: unknown) => (Array.isArray(value) ? value.map(String).join('\n') : '');
  const skills = Array.isArray(words.skills)
    ? (words.skills as { name: string; level: string }[]).map((s) => ({ name: s.name, level: s.level }))
    : [];
  return {
    values: {
      title: str(words.title),
      category: str(words.category),
      seniority: str(words.seniority),
      yearsExperience: str(words.yearsExperience),
      workStyle: str(words.workStyle),
      description: str(words.description),
      responsibilities: lines(words.responsibilities),
      benefits: lines(words.benefits),
      salaryMin: str(salary.min),
      salaryMax: str(salary.max),
      salaryCurrency: str(salary.currency),
      salaryPeriod: str(salary.period),
      city: str(location.city),
      state: str(location.state),
      country: str(location.country),
      remotePolicy: str(location.remotePolicy),
      onsiteDays: str(location.onsiteDays),
      employmentType: str(words.employmentType),
      contractType: str(words.contractType),
      expiresOn: controls.expiresAt ? controls.expiresAt.slice(0, 10) : '',
      maxMatches: controls.maxMatches === null ? '' : String(controls.maxMatches),
    },
    skills,
    questions: rowsOfQuestions(words.questions),
    errors: {},
  };
}

/** The form as it was sent, to read or to show again. */
export function stateOfForm(form: Form): JobFormState {
  const values: Record<string, string> = {};
  for (const field of TEXT_FIELDS) values[field] = form.get(field);
  const names = form.all('skillName');
  const levels = form.all('skillLevel');
  const skills = names
    .map((name, i) => ({ name, level: levels[i] ?? 'required' }))
    .filter((s) => s.name.trim() !== '');
  const { rows, focus } = rowsOfForm(form);
  return { values, skills, questions: rows, errors: {}, ...(focus ? { focus } : {}) };
}

/** The error's field id in the form, from the API schema's path (`/salary/min` → salaryMin). */
function fieldOf(path: string): string {
  const [first, second, third] = path.split('/').filter(Boolean);
  if (first === 'salary') return second ? `salary${humanise(second)}` : 'salaryMin';
  if (first === 'location') return second ?? 'city';
  if (first === 'skills')
    return second === undefined ? 'skill-name-0' : `skill-${third === 'level' ? 'level' : 'name'}-${second}`;
  if (first === 'expiresAt') return 'expiresOn';
  return first ?? 'title';
}

const MESSAGES: Record<string, string> = {
  title: 'Enter a title (up to 200 characters).',
  category: 'Choose a category from the list.',
  salaryCurrency: 'Enter the currency as three capital letters, for example AUD.',
  salaryMin: 'Enter the lowest pay as a number, for example 85000.',
  salaryMax: 'Enter the highest pay as a number, for example 95000.',
  responsibilities: `Up to ${MAX.listItems} lines of at most ${MAX.listItem} characters.`,
  benefits: `Up to ${MAX.listItems} lines of at most ${MAX.listItem} characters.`,
};

/**
 * The form's values in the API's shape, and what cannot be read (numbers, dates) by field id.
 * Blank optional fields are null (no salary, no location…); lists are one item per line.
 */
function readWords(state: JobFormState): {
  words: Words;
  controls: Words;
  errors: Record<string, string>;
  rowOf: number[];
} {
  const v = state.values;
  const asked = questionsOfRows(state.questions);
  const errors: Record<string, string> = { ...asked.errors };
  const trimmed = (name: string) => (v[name] ?? '').trim();
  const orNull = (name: string) => trimmed(name) || null;
  const lines = (name: string) =>
    (v[name] ?? '')
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean);
  const number = (name: string): number | undefined => {
    const text = trimmed(name).replaceAll(/[,\s]/g, '');
    if (text === '') return undefined;
    if (!/^\d+(\.\d+)?$/.test(text)) {
      errors[name] = MESSAGES[name] ?? 'Enter a number.';
      return undefined;
    }
    return Number(text);
  };
  const salary: Record<string, unknown> = {};
  const min = number('salaryMin');
  const max = number('salaryMax');
  if (min !== undefined) salary.min = min;
  if (max !== undefined) salary.max = max;
  if (min !== undefined && max !== undefined && min > max)
    errors.salaryMax = 'The highest pay cannot be less than the lowest.';
  if (trimmed('salaryCurrency')) salary.currency = trimmed('salaryCurrency').toUpperCase();
  if (trimmed('salaryPeriod')) salary.period = trimmed('salaryPeriod');
  const location: Record<string, unknown> = {};
  for (const part of ['city', 'state', 'country', 'remotePolicy', 'onsiteDays']) {
    if (trimmed(part)) location[part] = trimmed(part);
  }
  const words: Words = {
    title: trimmed('title'),
    description: v.description ?? '',
    responsibilities: lines('responsibilities'),
    skills: state.skills.map((s) => ({ name: s.name.trim(), level: s.level })),
    benefits: lines('benefits'),
    seniority: orNull('seniority'),
    yearsExperience: orNull('yearsExperience'),
    employmentType: orNull('employmentType'),
    contractType: orNull('contractType'),
    salary: Object.keys(salary).length === 0 ? null : salary,
    location: Object.keys(location).length === 0 ? null : location,
    workStyle: orNull('workStyle'),
    questions: asked.questions,
  };
  if (Object.keys(asked.errors).length === 0) Object.assign(errors, ruleErrors(asked.questions, asked.rowOf));
  if (trimmed('category')) words.category = trimmed('category');
  const controls: Words = {};
  const cap = trimmed('maxMatches');
  if (cap === '') controls.maxMatches = null;
  else if (/^\d{1,7}$/.test(cap) && Number(cap) >= 1) controls.maxMatches = Number(cap);
  else errors.maxMatches = 'Enter a whole number from 1, or leave it empty for no cap.';
  const expires = trimmed('expiresOn');
  if (expires === '') controls.expiresAt = null;
  else if (/^\d{4}-\d{2}-\d{2}$/.test(expires) && !Number.isNaN(Date.parse(`${expires}T23:59:59Z`)))
    controls.expiresAt = `${expires}T23:59:59.000Z`;
  else errors.expiresOn = 'Enter the closing date as a date, for example 2026-06-30.';
  return { words, controls, errors, rowOf: asked.rowOf };
}

/** The schema's complaints, each on its field (the first per field). */
function schemaErrors(valid: Validate, body: Words, errors: Record<string, string>, rowOf: number[]): void {
  if (valid(body)) return;
  for (const issue of valid.errors ?? []) {
    const field = issue.instancePath.startsWith('/questions/')
      ? questionField(issue.instancePath.slice('/questions'.length), rowOf)
      : fieldOf(issue.instancePath);
    if (errors[field] !== undefined) continue;
    errors[field] =
      questionMessage(field) ??
      MESSAGES[field] ??
      `${humanise(field.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase())}: ${issue.message ?? 'is not valid'}.`;
  }
}

export type FormOutcome<T> = { ok: true; body: T } | { ok: false; state: JobFormState };

/** A new job's body, or the form back with its errors. */
export function createBody(state: JobFormState): FormOutcome<JobCreate> {
  const { words, controls, errors, rowOf } = readWords(state);
  const body: Words = { ...words, ...controls };
  for (const [field, value] of Object.entries(body)) {
    if (value === null || (Array.isArray(value) && value.length === 0) || value === '') delete body[field];
  }
  body.title = words.title;
  schemaErrors(validatorsOnce().create, body, errors, rowOf);
  return Object.keys(errors).length > 0
    ? { ok: false, state: { ...state, errors } }
    : { ok: true, body: body as JobCreate };
}

function withoutInterval(salary: unknown): unknown {
  if (salary === null || typeof salary !== 'object') return salary;
  const { interval: _interval, ...rest } = salary as Record<string, unknown>;
  return rest;
}

/** Only what the form changed against the words it showed (staged words when there are some). */
export function editBody(
  state: JobFormState,
  shown: Words,
  current: { maxMatches: number | null; expiresAt: string | null },
): FormOutcome<JobEdit> {
  const { words, controls, errors, rowOf } = readWords(state);
  const body: Words = {};
  const blank = (value: unknown) =>
    value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
  for (const [field, value] of Object.entries(words)) {
    // The form has no interval field: the API derives it from the period (pay transparency, §9),
    // so a salary shown with one is compared without it.
    const before = field === 'salary' ? withoutInterval(shown[field]) : shown[field];
    if (blank(value) && blank(before)) continue;
    if (field === 'questions' ? !sameQuestions(value, before) : !isDeepStrictEqual(value, before))
      body[field] = value;
  }
  if (controls.maxMatches !== undefined && controls.maxMatches !== current.maxMatches)
    body.maxMatches = controls.maxMatches;
  if (
    controls.expiresAt !== undefined &&
    (controls.expiresAt as string | null)?.slice(0, 10) !== current.expiresAt?.slice(0, 10)
  )
    body.expiresAt = controls.expiresAt;
  schemaErrors(validatorsOnce().edit, body, errors, rowOf);
  return Object.keys(errors).length > 0
    ? { ok: false, state: { ...state, errors } }
    : { ok: true, body: body as JobEdit };
}

/** The form's values as the read API's job (for the job page preview): lenient, nothing checked. */
export function previewWords(state: JobFormState): Words {
  const { words } = readWords(state);
  return words;
}

// ——— The form ———
