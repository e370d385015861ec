import { QUESTION_MAX, QUESTION_TYPES, type QuestionType, SELECT_TYPES } from '../../contract/questions.ts';
import { AppError } from '../../domain/errors.ts';
import { checkQuestions } from '../../domain/jobs/question-rules.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import { described } from './form-fields.ts';
import type { Form } from './web.ts';
import { QUESTION_TYPE_WORDS, QUESTION_WORDS } from './words.ts';

// The job form's questions (extensions.md §5; issue 28 item 7): one row of fields per question,
// added, removed and moved by buttons that post the form back (it works without a script), read
// into the API's Question[] and checked by the same rules the API applies.

/** One question as the form shows it: every field as typed. */
export interface QuestionRow {
  /** The question's id when it was saved before (kept across edits); '' for a new one. */
  id: string;
  label: string;
  type: string;
  required: boolean;
  demographic: boolean;
  helpText: string;
  /** One option per line: `Label`, or `Label [value]` to keep a value that differs from the label. */
  options: string;
  min: string;
  max: string;
  maxLength: string;
}

type Words = Record<string, unknown>;
const TEXT_TYPES: readonly string[] = ['short_text', 'long_text'];

export const blankQuestion = (): QuestionRow => ({
  id: '',
  label: '',
  type: 'short_text',
  required: false,
  demographic: false,
  helpText: '',
  options: '',
  min: '',
  max: '',
  maxLength: '',
});

/** The lower-case key a label gives (`Years of Java?` → `years_of_java`), at most 40 characters. */
export function keyOf(label: string): string {
  return label
    .normalize('NFKD')
    .replaceAll(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replaceAll(/[^a-z0-9]+/g, '_')
    .replaceAll(/^_+|_+$/g, '')
    .slice(0, 40)
    .replace(/_+$/, '');
}

const numberText = (value: unknown) => (typeof value === 'number' ? String(value) : '');

/** The rows of a job's questions (as the API answers them). */
export function rowsOfQuestions(questions: unknown): QuestionRow[] {
  if (!Array.isArray(questions)) return [];
  return (questions as Words[]).map((q) => {
    const options = Array.isArray(q.options) ? (q.options as { value: string; label: string }[]) : [];
    return {
      id: String(q.id ?? ''),
      label: String(q.label ?? ''),
      type: String(q.type ?? 'short_text'),
      required: q.required === true,
      demographic: q.demographic === true,
      helpText: typeof q.helpText === 'string' ? q.helpText : '',
      options: options
        .map((o) => (keyOf(o.label) === o.value ? o.label : `${o.label} [${o.value}]`))
        .join('\n'),
      min: numberText(q.min),
      max: numberText(q.max),
      maxLength: numberText(q.maxLength),
    };
  });
}

/** The question buttons' intents: add one, or remove or move the row at an index. */
const ROW_INTENT = /^(remove|up|down)-question-(\d{1,2})$/;
export const isQuestionIntent = (intent: string) => intent === 'add-question' || ROW_INTENT.test(intent);

/**
 * The rows as posted, with the button's change applied; `focus` names the field to put the
 * keyboard on afterwards (the new row's question, or the moved row's button).
 */
export function rowsOfForm(form: Form): { rows: QuestionRow[]; focus?: string } {
  const count = Math.min(Number.parseInt(form.get('questionCount'), 10) || 0, QUESTION_MAX.questions);
  const rows: QuestionRow[] = [];
  for (let i = 0; i < count; i++) {
    const field = (name: string) => form.get(`q-${i}-${name}`);
    rows.push({
      id: /^[a-z0-9_]{1,40}$/.test(field('id')) ? field('id') : '',
      label: field('label'),
      type: (QUESTION_TYPES as readonly string[]).includes(field('type')) ? field('type') : 'short_text',
      required: field('required') === 'yes',
      demographic: field('demographic') === 'yes',
      helpText: field('helpText'),
      options: field('options'),
      min: field('min'),
      max: field('max'),
      maxLength: field('maxLength'),
    });
  }
  const intent = form.get('intent');
  if (intent === 'add-question') {
    if (rows.length >= QUESTION_MAX.questions) return { rows };
    rows.push(blankQuestion());
    return { rows, focus: `q-${rows.length - 1}-label` };
  }
  const match = ROW_INTENT.exec(intent);
  if (!match) return { rows };
  const at = Number(match[2]);
  if (at >= rows.length) return { rows };
  if (match[1] === 'remove') {
    rows.splice(at, 1);
    return { rows, focus: rows.length > 0 ? `q-${Math.min(at, rows.length - 1)}-label` : 'add-question' };
  }
  const to = match[1] === 'up' ? at - 1 : at + 1;
  if (to < 0 || to >= rows.length) return { rows };
  [rows[at], rows[to]] = [rows[to] as QuestionRow, rows[at] as QuestionRow];
  return { rows, focus: `q-${to}-${match[1]}` };
}

/** A choice line: `Label` or `Label [value]`. */
function optionOf(line: string): { value: string; label: string } {
  const given = /^(.*?)\s*\[([a-z0-9_]{1,40})\]$/.exec(line);
  if (given) return { label: (given[1] as string).trim(), value: given[2] as string };
  return { label: line, value: keyOf(line) };
}

/**
 * The rows as the API's questions: blank rows dropped; a new question's id made from its label
 * (kept unique). `rowOf[i]` is the form row of question i, to put an error on its field.
 */
export function questionsOfRows(rows: QuestionRow[]): {
  questions: Words[];
  rowOf: number[];
  errors: Record<string, string>;
} {
  const errors: Record<string, string> = {};
  const kept = rows.map((row, i) => ({ row, i })).filter(({ row }) => row.label.trim() !== '');
  const taken = new Set(kept.map(({ row }) => row.id).filter(Boolean));
  const questions = kept.map(({ row, i }) => {
    let id = row.id;
    if (id === '') {
      const base = keyOf(row.label) || `question_${i + 1}`;
      id = base;
      for (let n = 2; taken.has(id); n++) id = `${base.slice(0, 36)}_${n}`;
      taken.add(id);
    }
    const type = row.type as QuestionType;
    const q: Words = { id, label: row.label.trim(), type, required: row.required };
    if (row.demographic) q.demographic = true;
    if (row.helpText.trim()) q.helpText = row.helpText.trim();
    if (SELECT_TYPES.includes(type)) {
      q.options = row.options
        .split(/\r?\n/)
        .map((line) => line.trim())
        .filter(Boolean)
        .map(optionOf);
      if ((q.options as { value: string }[]).some((o) => o.value === ''))
        errors[`q-${i}-options`] = QUESTION_WORDS.optionKey;
    }
    const number = (name: 'min' | 'max' | 'maxLength', whole: boolean) => {
      const text = row[name].trim();
      if (text === '') return;
      if (!(whole ? /^\d{1,5}$/ : /^-?\d{1,12}(\.\d+)?$/).test(text)) {
        errors[`q-${i}-${name}`] = whole ? QUESTION_WORDS.maxLength : QUESTION_WORDS.number;
        return;
      }
      q[name] = Number(text);
    };
    if (TEXT_TYPES.includes(type)) number('maxLength', true);
    if (type === 'number') {
      number('min', false);
      number('max', false);
    }
    return q;
  });
  return { questions, rowOf: kept.map(({ i }) => i), errors };
}

/** The form field of an API path under `questions` (`/2/options/0/value` or `[2].options`). */
export function questionField(path: string, rowOf: number[]): string {
  const [index, name] = path.split(/[[\]./]+/).filter(Boolean);
  const row = rowOf[Number(index)] ?? 0;
  const field = name === 'id' ? 'label' : (name ?? 'label');
  return `q-${row}-${field}`;
}

/** The words for an error on a question's field (`q-3-options`), if it is one. */
export function questionMessage(field: string): string | undefined {
  const kind = /^q-\d+-(\w+)$/.exec(field)?.[1];
  return kind === undefined ? undefined : (QUESTION_WORDS as Record<string, string>)[kind];
}

/** The API's own question rules, with each refusal on its row's field in words. */
export function ruleErrors(questions: Words[], rowOf: number[]): Record<string, string> {
  try {
    checkQuestions(questions as never);
    return {};
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    const path = String((error.extra as { field?: unknown }).field ?? '').replace(/^questions/, '');
    const field = questionField(path, rowOf);
    return { [field]: questionMessage(field) ?? error.message };
  }
}

/** Questions compared as the API keeps them: `required` explicit, empty optional fields absent. */
export function sameQuestions(a: unknown, b: unknown): boolean {
  const norm = (list: unknown) =>
    JSON.stringify(
      (Array.isArray(list) ? (list as Words[]) : []).map((q) => {
        const out: Words = {};
        for (const key of Object.keys(q).sort()) {
          const value = q[key];
          if (
            value === undefined ||
            value === null ||
            value === '' ||
            (key === 'demographic' && value === false)
          )
            continue;
          out[key] = value;
        }
        out.required = q.required === true;
        return out;
      }),
    );
  return norm(a) === norm(b);
}

// ——— The fieldset ———

function row(
  q: QuestionRow,
  i: number,
  count: number,
  errors: Record<string, string>,
  focus?: string,
): SafeHtml {
  const id = (name: string) => `q-${i}-${name}`;
  const auto = (name: string) => focus === id(name) && html` autofocus`;
  const text = (
    name: 'label' | 'helpText' | 'min' | 'max' | 'maxLength',
    label: string,
    attrs: SafeHtml,
    hint?: string,
  ) => {
    const d = described(errors, id(name), hint);
    return html`<div class="field q-${name}"><label for="${id(name)}">${label}</label><input type="text" id="${id(name)}" name="${id(name)}" value="${q[name]}"${attrs}${d.attrs}${auto(name)}>${d.after}</div>`;
  };
  const types = QUESTION_TYPES.map(
    (t) => html`<option value="${t}"${t === q.type && html` selected`}>${QUESTION_TYPE_WORDS[t]}</option>`,
  );
  const typeD = described(errors, id('type'));
  const optionsD = described(errors, id('options'), QUESTION_WORDS.optionsHint);
  const check = (name: 'required' | 'demographic', label: string, hint: string) => {
    const d = described(errors, id(name), hint);
    return html`<div class="field check"><input type="checkbox" id="${id(name)}" name="${id(name)}" value="yes"${q[name] && html` checked`}${d.attrs}><label for="${id(name)}">${label}</label>${d.after}</div>`;
  };
  const button = (intent: string, label: string, spoken: string, disabled: boolean) =>
    html`<button type="submit" id="${id(intent)}" name="intent" value="${intent}-question-${i}" class="secondary-button" formnovalidate${disabled && html` disabled`}${auto(intent)}>${label}<span class="hp"> ${spoken}</span></button>`;
  return html`<li class="question" data-type="${q.type}"><fieldset><legend>Question ${i + 1}${q.label && html`: ${q.label}`}</legend>
<input type="hidden" name="q-${i}-id" value="${q.id}">
${text('label', 'Question', html` maxlength="${QUESTION_MAX.label}"`, q.id ? `${QUESTION_WORDS.keyHint} ${q.id}` : undefined)}
<div class="field"><label for="${id('type')}">Answer type</label><select id="${id('type')}" name="${id('type')}"${typeD.attrs}>${types}</select>${typeD.after}</div>
${text('helpText', 'Help text (optional)', html` maxlength="${QUESTION_MAX.helpText}"`)}
<div class="field wide q-options"><label for="${id('options')}">Choices</label><textarea id="${id('options')}" name="${id('options')}" rows="4"${optionsD.attrs}>${q.options}</textarea>${optionsD.after}</div>
${text('min', 'Lowest number (optional)', html` inputmode="decimal"`)}
${text('max', 'Highest number (optional)', html` inputmode="decimal"`)}
${text('maxLength', 'Longest answer, in characters (optional)', html` inputmode="numeric"`)}
${check('required', 'The candidate must answer', QUESTION_WORDS.requiredHint)}
${check('demographic', 'Voluntary equal-opportunity question', QUESTION_WORDS.demographicHint)}
<div class="q-actions">${button('up', 'Move up', `question ${i + 1}`, i === 0)}${button('down', 'Move down', `question ${i + 1}`, i === count - 1)}${button('remove', 'Remove', `question ${i + 1}`, false)}</div></fieldset></li>`;
}

/** The questions fieldset: a row per question, and a button that adds one. */
export function questionsFieldset(
  rows: QuestionRow[],
  errors: Record<string, string>,
  focus?: string,
): SafeHtml {
  const full = rows.length >= QUESTION_MAX.questions;
  return html`<fieldset id="fs-questions"><legend>Questions for candidates</legend>
<p class="hint">${QUESTION_WORDS.intro}</p><input type="hidden" name="questionCount" value="${rows.length}">
${rows.length > 0 ? html`<ol class="questions">${rows.map((q, i) => row(q, i, rows.length, errors, focus))}</ol>` : html`<p>${QUESTION_WORDS.none}</p>`}
<button type="submit" id="add-question" name="intent" value="add-question" class="secondary-button" formnovalidate${full && html` disabled`}${focus === 'add-question' && html` autofocus`}>Add a question</button>${full && html`<p class="hint">${QUESTION_WORDS.full}</p>`}</fieldset>`;
}

export const QUESTION_STYLE = html`ol.questions{list-style:none;padding:0;margin:0;display:grid;gap:1rem}li.question fieldset{border:1px solid #bbb;border-radius:8px;display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:0 1rem}li.question legend{font-size:1rem}
li.question .field.check{display:grid;grid-template-columns:auto minmax(0,1fr);gap:0 .5rem;align-items:start;grid-column:1/-1;margin-top:1rem}li.question .field.check input{margin:.35rem 0 0;width:1.1rem;height:1.1rem}li.question .field.check label{margin:0}li.question .field.check .hint,li.question .field.check .error{grid-column:2;margin:0}.q-actions{grid-column:1/-1;display:flex;flex-wrap:wrap;gap:.5rem}.q-actions button{margin-top:.25rem}
li.question .q-label{grid-column:1/-1}li.question textarea{width:100%;box-sizing:border-box}li.question [hidden]{display:none}`;
