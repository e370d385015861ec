import { CATEGORIES, CONTRACT_TYPES, EMPLOYMENT_TYPES, MAX, REMOTE_POLICIES } from '../../contract/job.ts';
import type { ConsoleSession } from '../../domain/console-users/user-service.ts';
import { html, type SafeHtml } from '../../lib/html.ts';
import { sanitizeDescription } from '../../lib/sanitize.ts';
import { descriptionHtml } from '../pages/job-page.ts';
import { described } from './form-fields.ts';
import { BLANK_SKILLS, type JobFormState, SALARY_PERIODS } from './job-form-read.ts';
import { csrfField } from './layout.ts';
import { isQuestionIntent, QUESTION_STYLE, questionsFieldset } from './question-editor.ts';
import type { Form } from './web.ts';
import { humanise, MANAGED_WORDS } from './words.ts';

export {
  createBody,
  editBody,
  type FormOutcome,
  type JobFormState,
  previewWords,
  type SkillRow,
  stateOfForm,
  stateOfWords,
} from './job-form-read.ts';

const CATEGORY_WORDS: Record<string, string> = {
  hr_people: 'HR and people',
  customer_success: 'Customer success',
  construction_trades: 'Construction and trades',
  admin_support: 'Admin and support',
};
const EMPLOYMENT_WORDS: Record<string, string> = { full_time: 'Full time', part_time: 'Part time' };
const CONTRACT_WORDS: Record<string, string> = {
  permanent: 'Permanent',
  part_time: 'Part time',
  fixed_term: 'Fixed term',
  contract: 'Contract',
  casual: 'Casual',
};
const REMOTE_WORDS: Record<string, string> = {
  onsite: 'On site',
  hybrid: 'Hybrid (some days on site)',
  remote: 'Remote',
};

function options(
  values: readonly string[],
  current: string,
  blank: string | null,
  words: Record<string, string> = {},
): SafeHtml {
  return html`${blank !== null && html`<option value="">${blank}</option>`}${values.map(
    (value) =>
      html`<option value="${value}"${value === current && html` selected`}>${words[value] ?? humanise(value)}</option>`,
  )}`;
}

function input(
  state: JobFormState,
  id: string,
  label: string,
  extra: { hint?: string; type?: string; attrs?: SafeHtml; wide?: boolean } = {},
): SafeHtml {
  const d = described(state.errors, id, extra.hint);
  return html`<div class="field${extra.wide ? ' wide' : ''}"><label for="${id}">${label}</label><input type="${extra.type ?? 'text'}" id="${id}" name="${id}" value="${state.values[id] ?? ''}"${extra.attrs}${d.attrs}>${d.after}</div>`;
}

function select(state: JobFormState, id: string, label: string, list: SafeHtml, hint?: string): SafeHtml {
  const d = described(state.errors, id, hint);
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${id}"${d.attrs}>${list}</select>${d.after}</div>`;
}

function textarea(state: JobFormState, id: string, label: string, rows: number, hint: string): SafeHtml {
  const d = described(state.errors, id, hint);
  return html`<div class="field wide"><label for="${id}">${label}</label><textarea id="${id}" name="${id}" rows="${rows}"${d.attrs}>${state.values[id] ?? ''}</textarea>${d.after}</div>`;
}

function skillRows(state: JobFormState, extraRows: number): SafeHtml {
  const rows = [
    ...state.skills,
    ...Array.from({ length: extraRows }, () => ({ name: '', level: 'required' })),
  ].slice(0, MAX.skills);
  const list = rows.map((skill, i) => {
    const nameError = state.errors[`skill-name-${i}`];
    return html`<li class="skill"><div class="field"><label for="skill-name-${i}">Skill ${i + 1}</label><input type="text" id="skill-name-${i}" name="skillName" maxlength="${MAX.skillName}" value="${skill.name}"${nameError && html` aria-invalid="true" aria-describedby="skill-name-${i}-error"`}>${nameError && html`<p class="error" id="skill-name-${i}-error">${nameError}</p>`}</div>
<div class="field"><label for="skill-level-${i}">How needed<span class="hp"> is skill ${i + 1}</span></label><select id="skill-level-${i}" name="skillLevel"><option value="required"${skill.level !== 'nice_to_have' && html` selected`}>Required</option><option value="nice_to_have"${skill.level === 'nice_to_have' && html` selected`}>Nice to have</option></select></div></li>`;
  });
  return html`<ol class="skills">${list}</ol><p class="hint">Leave a row empty to drop it.</p><button type="submit" name="intent" value="more" class="secondary-button" formnovalidate>Add skill rows</button>`;
}

/** What the sanitiser keeps of the description: shown after "Preview the description". */
function descriptionPreview(description: string): SafeHtml {
  const kept = sanitizeDescription(description);
  const removed =
    kept.replaceAll(/\s+/g, '') !== description.replaceAll(/\s+/g, '') && /<|&/.test(description);
  return html`<section class="kept" id="description-preview" aria-labelledby="kept-h" tabindex="-1"><h2 id="kept-h">What the job page will show</h2>
${removed && html`<p class="notice" role="status">Some of what you wrote will be removed: only paragraphs, line breaks, lists, bold, italic, underline, headings, quotes and web or email links are kept. Scripts, styles, images and frames never are.</p>`}
<div class="rendered">${descriptionHtml(description)}</div>
<details><summary>The HTML that will be kept</summary><pre><code>${kept}</code></pre></details></section>`;
}

/** The form's fieldsets, in order; each takes the state and answers its markup. */
export const JOB_FIELDSETS: { id: string; render: (state: JobFormState, view: FormView) => SafeHtml }[] = [
  {
    id: 'role',
    render: (s) => html`<fieldset id="fs-role"><legend>The role</legend>
${input(s, 'title', 'Job title', { attrs: html` required maxlength="${MAX.title}"`, wide: true })}
${select(s, 'category', 'Category', options(CATEGORIES, s.values.category ?? '', 'Choose a category', CATEGORY_WORDS))}
${input(s, 'seniority', 'Seniority', { hint: 'For example: Junior, Senior, Lead.', attrs: html` maxlength="${MAX.shortText}"` })}
${input(s, 'yearsExperience', 'Experience', { hint: 'For example: 3+ or 2 to 5 (years).', attrs: html` maxlength="50"` })}
${input(s, 'workStyle', 'Work style', { hint: 'For example: Flexible hours, Shift work.', attrs: html` maxlength="${MAX.shortText}"` })}</fieldset>`,
  },
  {
    id: 'description',
    render: (s, view) => html`<fieldset id="fs-description"><legend>About the job</legend>
<div class="toolbar" id="description-toolbar" hidden></div>
${textarea(s, 'description', 'Description', 12, 'Write plain text, or simple HTML: paragraphs (p), bold (strong), italic (em), lists (ul or ol, with li), headings (h2 to h4), quotes (blockquote) and web or email links (a href). Anything else is removed when you save; “Preview the description” shows what stays.')}
<button type="submit" name="intent" value="preview" class="secondary-button" formnovalidate>Preview the description</button>
${view.preview && descriptionPreview(s.values.description ?? '')}
${textarea(s, 'responsibilities', 'Responsibilities', 5, 'One per line.')}
${textarea(s, 'benefits', 'Benefits', 4, 'One per line.')}</fieldset>`,
  },
  {
    id: 'skills',
    render: (s, view) =>
      html`<fieldset id="fs-skills"><legend>Skills</legend>${skillRows(s, view.extraSkillRows)}</fieldset>`,
  },
  {
    id: 'questions',
    render: (s) => questionsFieldset(s.questions, s.errors, s.focus),
  },
  {
    id: 'pay',
    render: (s) => html`<fieldset id="fs-pay"><legend>Pay</legend>
${input(s, 'salaryMin', 'Lowest pay', { attrs: html` inputmode="decimal"` })}
${input(s, 'salaryMax', 'Highest pay', { attrs: html` inputmode="decimal"` })}
${input(s, 'salaryCurrency', 'Currency', { hint: 'Three letters, for example AUD or USD.', attrs: html` maxlength="3" autocapitalize="characters"` })}
${select(s, 'salaryPeriod', 'Per', options([...SALARY_PERIODS, ...(s.values.salaryPeriod && !SALARY_PERIODS.includes(s.values.salaryPeriod as 'year') ? [s.values.salaryPeriod] : [])], s.values.salaryPeriod ?? '', 'Not said'))}</fieldset>`,
  },
  {
    id: 'place',
    render: (s) => html`<fieldset id="fs-place"><legend>Where the work is done</legend>
${select(s, 'remotePolicy', 'On site or remote', options(REMOTE_POLICIES, s.values.remotePolicy ?? '', 'Not said', REMOTE_WORDS))}
${input(s, 'city', 'City', { attrs: html` maxlength="${MAX.shortText}"` })}
${input(s, 'state', 'State or region', { attrs: html` maxlength="${MAX.shortText}"` })}
${input(s, 'country', 'Country', { hint: 'A two-letter code (AU, NZ, GB…) shows as the country’s name.', attrs: html` maxlength="${MAX.shortText}"` })}
${input(s, 'onsiteDays', 'Days on site', { hint: 'For a hybrid role, for example: 3 days a week.', attrs: html` maxlength="50"` })}</fieldset>`,
  },
  {
    id: 'terms',
    render: (s) => html`<fieldset id="fs-terms"><legend>Terms</legend>
${select(s, 'employmentType', 'Hours', options(EMPLOYMENT_TYPES, s.values.employmentType ?? '', 'Not said', EMPLOYMENT_WORDS))}
${select(s, 'contractType', 'Contract', options(CONTRACT_TYPES, s.values.contractType ?? '', 'Not said', CONTRACT_WORDS))}
${input(s, 'expiresOn', 'Closing date', { type: 'date', hint: 'Applications close at the end of this day (UTC). Empty: open until you close it.' })}
${input(s, 'maxMatches', 'Most suggested candidates', { type: 'number', hint: 'For a role we manage: stop suggesting candidates once this many exist. Empty: no cap.', attrs: html` min="1" max="1000000"` })}</fieldset>`,
  },
];

export interface FormView {
  /** Show what the sanitiser keeps of the description. */
  preview: boolean;
  /** Blank skill rows offered. */
  extraSkillRows: number;
}

/** The job form: every field of JobWrite, in fieldsets; the values as typed, the errors on their fields. */
export function jobForm(
  session: ConsoleSession,
  target: string,
  state: JobFormState,
  submit: string,
  view: FormView = { preview: false, extraSkillRows: BLANK_SKILLS },
): SafeHtml {
  const count = Object.keys(state.errors).length;
  const summary =
    count > 0 &&
    html`<div class="error-summary" role="alert" tabindex="-1" id="form-errors"><h2>${count === 1 ? 'One field needs a change' : `${count} fields need a change`}</h2><ul>${Object.entries(state.errors).map(([field, message]) => html`<li><a href="#${field}">${message}</a></li>`)}</ul></div>`;
  return html`${summary}<form method="post" action="${target}" class="job-form" novalidate>${csrfField(session)}
${JOB_FIELDSETS.map((fieldset) => fieldset.render(state, view))}
<script src="/assets/console-editor.js" defer></script><div class="actions"><button type="submit" name="intent" value="save">${submit}</button><button type="submit" class="secondary-button" formaction="/console/jobs/preview" formtarget="_blank" formnovalidate>Preview the job page<span class="hp"> (opens a new tab, saves nothing)</span></button></div></form>`;
}

/** The form's intent: save it, preview the description, add skill rows, or change the questions. */
export function intentOf(form: Form): 'save' | 'preview' | 'more' | 'questions' {
  const intent = form.get('intent');
  if (isQuestionIntent(intent)) return 'questions';
  return intent === 'preview' || intent === 'more' ? intent : 'save';
}

/** The view after `intent` (more skill rows, or the description's preview). */
export function viewOf(form: Form): FormView {
  const intent = intentOf(form);
  return {
    preview: intent === 'preview',
    extraSkillRows: intent === 'more' ? BLANK_SKILLS + 5 : BLANK_SKILLS,
  };
}

export const JOB_FORM_STYLE = html`<style>.job-form fieldset{padding:.5rem 1rem 1rem}.job-form legend{font-weight:700;font-size:1.1rem;padding:0 .25rem}
.job-form fieldset{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:0 1rem;align-items:start}.job-form .wide,.job-form fieldset>legend,.job-form fieldset>button,.job-form fieldset>.kept,.job-form fieldset>.toolbar,.job-form fieldset>ol,.job-form fieldset>p{grid-column:1/-1}
.job-form input[type=text],.job-form input[type=number],.job-form input[type=date],.job-form select{width:100%;box-sizing:border-box}
.job-form [aria-invalid=true]{border-color:#a40000;border-width:2px}ol.skills{list-style:none;padding:0;margin:0}li.skill{display:grid;grid-template-columns:minmax(0,2fr) minmax(9rem,1fr);gap:0 1rem}@media (max-width:30rem){li.skill{grid-template-columns:1fr;border-bottom:1px solid #ddd;padding-bottom:.5rem}}
button.secondary-button{background:#fff;color:#1b1b1f;margin-top:.75rem;justify-self:start}.error-summary{border:3px solid #a40000;background:#fff;padding:.5rem 1rem;border-radius:6px}.error-summary h2{margin-top:.25rem}
.kept{border:2px dashed #1d4ed8;background:#f3f6ff;border-radius:8px;padding:.75rem 1rem;margin:1rem 0}.kept .rendered{background:#fff;padding:.5rem 1rem;border:1px solid #ddd}.kept pre{white-space:pre-wrap;overflow-wrap:anywhere}.notice{background:#fff8d6;border:1px solid #8a6d00;padding:.5rem .75rem;border-radius:6px}
.toolbar{display:flex;flex-wrap:wrap;gap:.25rem;margin-top:.75rem}.toolbar button{padding:.3rem .6rem;background:#fff;color:#1b1b1f}
${QUESTION_STYLE}</style>`;

export { MANAGED_WORDS };
