/**
 * The job's own questions on the hosted apply page (extensions.md §5): one accessible control per
 * question (a label for every field, a fieldset and legend for every group, errors tied to their
 * field, values kept after an error), the demographic questions in a section of their own that
 * says they are voluntary and never shown to the recruiter; the landing address's `utm_*` carried
 * as hidden fields; and the posted form read back into typed answers and a source.
 */
import type { ApplicationWrite } from '../../../contract/intake.ts';
import {
  type AnswerProblem,
  PREFER_NOT_TO_SAY,
  QUESTION_MAX,
  type Question,
} from '../../../contract/questions.ts';
import { html, joinHtml, type SafeHtml } from '../../../lib/html.ts';
import type { Form } from '../form-body.ts';
import type { PageLang } from '../i18n.ts';

/** The `utm_*` parameters a landing address may carry, and the source fields they become. */
export const UTM_PARAMS = {
  utm_source: 'utmSource',
  utm_medium: 'utmMedium',
  utm_campaign: 'utmCampaign',
  utm_term: 'utmTerm',
  utm_content: 'utmContent',
} as const;
export type Utm = Partial<Record<keyof typeof UTM_PARAMS, string>>;

/** What the question part of the form holds: values as typed, kept files, errors, the landing's utm. */
export interface QuestionState {
  values: Record<string, string[]>;
  kept: Record<string, { uploadId: string; name: string }>;
  errors: Record<string, string>;
  utm: Utm;
}

export const emptyQuestionState = (utm: Utm = {}): QuestionState => ({
  values: {},
  kept: {},
  errors: {},
  utm,
});

/** The utm_* of a query string or form, each a string of at most 200 characters. */
export function readUtm(get: (name: string) => unknown): Utm {
  const utm: Utm = {};
  for (const name of Object.keys(UTM_PARAMS) as (keyof typeof UTM_PARAMS)[]) {
    const value = get(name);
    if (typeof value === 'string' && value.trim() !== '') utm[name] = value.trim().slice(0, 200);
  }
  return utm;
}

/** `&utm_source=…` for the links that carry the landing's parameters on. */
export function utmQuery(utm: Utm): string {
  const params = new URLSearchParams(Object.entries(utm) as [string, string][]).toString();
  return params ? `&${params}` : '';
}

interface QuestionWords {
  optional: string;
  yes: string;
  no: string;
  preferNot: string;
  choose: string;
  voluntaryHeading: string;
  voluntaryBody: string;
  keptFile: (name: string) => string;
  fileHint: string;
  problems: Record<AnswerProblem, string>;
}

const WORDS: Record<PageLang, QuestionWords> = {
  en: {
    optional: 'optional',
    yes: 'Yes',
    no: 'No',
    preferNot: 'Prefer not to say',
    choose: 'Choose…',
    voluntaryHeading: 'Voluntary questions about you',
    voluntaryBody:
      'These questions help the employer check that it treats every applicant fairly. Answering is voluntary and changes nothing in how your application is handled. Your answers are kept apart from your application and are never shown to the recruiter: they are only counted with everyone else’s.',
    keptFile: (n) => `We kept the file you sent (${n}); choose another only to replace it.`,
    fileHint: 'A PDF file.',
    problems: {
      required: 'Please answer this question.',
      unknown_question: 'This question is no longer asked; send the form again.',
      wrong_type: 'This answer is not in the expected form.',
      not_an_option: 'Choose one of the options shown.',
      too_long: 'This answer is too long.',
      out_of_range: 'This number is outside the range asked for.',
      bad_date: 'Enter a real date.',
      upload_invalid: 'We could not use this file; choose a PDF.',
      duplicate: 'This question was answered twice.',
    },
  },
  es: {
    optional: 'opcional',
    yes: 'Sí',
    no: 'No',
    preferNot: 'Prefiero no decirlo',
    choose: 'Elige…',
    voluntaryHeading: 'Preguntas voluntarias sobre ti',
    voluntaryBody:
      'Estas preguntas ayudan a la empresa a comprobar que trata a todas las personas por igual. Responder es voluntario y no cambia nada en tu candidatura. Tus respuestas se guardan aparte de tu candidatura y nunca se muestran a quien selecciona: solo se cuentan junto con las de los demás.',
    keptFile: (n) => `Hemos guardado el archivo que enviaste (${n}); elige otro solo para sustituirlo.`,
    fileHint: 'Un archivo PDF.',
    problems: {
      required: 'Responde a esta pregunta.',
      unknown_question: 'Esta pregunta ya no se hace; envía el formulario de nuevo.',
      wrong_type: 'Esta respuesta no tiene la forma esperada.',
      not_an_option: 'Elige una de las opciones.',
      too_long: 'Esta respuesta es demasiado larga.',
      out_of_range: 'Este número está fuera del intervalo pedido.',
      bad_date: 'Escribe una fecha real.',
      upload_invalid: 'No hemos podido usar este archivo; elige un PDF.',
      duplicate: 'Esta pregunta se respondió dos veces.',
    },
  },
  fr: {
    optional: 'facultatif',
    yes: 'Oui',
    no: 'Non',
    preferNot: 'Je préfère ne pas répondre',
    choose: 'Choisir…',
    voluntaryHeading: 'Questions facultatives vous concernant',
    voluntaryBody:
      'Ces questions aident l’employeur à vérifier qu’il traite chaque candidature équitablement. Y répondre est facultatif et ne change rien au traitement de votre candidature. Vos réponses sont conservées à part et ne sont jamais montrées au recruteur : elles sont seulement comptées avec celles des autres.',
    keptFile: (n) =>
      `Nous avons gardé le fichier envoyé (${n}) ; n’en choisissez un autre que pour le remplacer.`,
    fileHint: 'Un fichier PDF.',
    problems: {
      required: 'Veuillez répondre à cette question.',
      unknown_question: 'Cette question n’est plus posée ; envoyez à nouveau le formulaire.',
      wrong_type: 'Cette réponse n’a pas la forme attendue.',
      not_an_option: 'Choisissez l’une des options proposées.',
      too_long: 'Cette réponse est trop longue.',
      out_of_range: 'Ce nombre est hors de l’intervalle demandé.',
      bad_date: 'Saisissez une date réelle.',
      upload_invalid: 'Nous n’avons pas pu utiliser ce fichier ; choisissez un PDF.',
      duplicate: 'Cette question a reçu deux réponses.',
    },
  },
  pt: {
    optional: 'opcional',
    yes: 'Sim',
    no: 'Não',
    preferNot: 'Prefiro não dizer',
    choose: 'Escolha…',
    voluntaryHeading: 'Perguntas voluntárias sobre si',
    voluntaryBody:
      'Estas perguntas ajudam o empregador a verificar que trata todas as candidaturas de forma justa. Responder é voluntário e não muda nada na sua candidatura. As respostas são guardadas à parte da candidatura e nunca são mostradas ao recrutador: apenas são contadas com as dos outros.',
    keptFile: (n) => `Guardámos o ficheiro enviado (${n}); escolha outro apenas para o substituir.`,
    fileHint: 'Um ficheiro PDF.',
    problems: {
      required: 'Responda a esta pergunta.',
      unknown_question: 'Esta pergunta já não é feita; envie o formulário de novo.',
      wrong_type: 'Esta resposta não tem a forma esperada.',
      not_an_option: 'Escolha uma das opções apresentadas.',
      too_long: 'Esta resposta é demasiado longa.',
      out_of_range: 'Este número está fora do intervalo pedido.',
      bad_date: 'Indique uma data real.',
      upload_invalid: 'Não foi possível usar este ficheiro; escolha um PDF.',
      duplicate: 'Esta pergunta foi respondida duas vezes.',
    },
  },
};

export const problemText = (lang: PageLang, problem: AnswerProblem) => WORDS[lang].problems[problem];

const fieldName = (q: Question) => `q_${q.id}`;
const controlId = (q: Question) => `q-${q.id}`;

/** The options a group offers: a demographic one always with "Prefer not to say". */
function choices(q: Question, w: QuestionWords): { value: string; label: string }[] {
  const listed =
    q.type === 'yes_no'
      ? [
          { value: 'yes', label: w.yes },
          { value: 'no', label: w.no },
        ]
      : (q.options ?? []);
  if (q.demographic !== true || listed.some((o) => o.value === PREFER_NOT_TO_SAY)) return listed;
  return [...listed, { value: PREFER_NOT_TO_SAY, label: w.preferNot }];
}

/** A text, number, date or file control with its label, help and error. */
function single(q: Question, state: QuestionState, w: QuestionWords, maxBytes: number): SafeHtml {
  const id = controlId(q);
  const error = state.errors[q.id];
  const value = state.values[q.id]?.[0] ?? '';
  const kept = state.kept[q.id];
  const described = [q.helpText ? `${id}-help` : '', kept ? `${id}-kept` : '', error ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const aria = html`${described && html` aria-describedby="${described}"`}${error && html` aria-invalid="true"`}${q.required && !(q.type === 'file' && kept) && html` required`}`;
  const max = q.maxLength ?? (q.type === 'short_text' ? QUESTION_MAX.shortText : QUESTION_MAX.longText);
  let control: SafeHtml;
  if (q.type === 'long_text')
    control = html`<textarea id="${id}" name="${fieldName(q)}" rows="5" maxlength="${max}"${aria}>${value}</textarea>`;
  else if (q.type === 'number')
    control = html`<input id="${id}" name="${fieldName(q)}" type="number" inputmode="decimal" step="any"${q.min !== undefined && html` min="${q.min}"`}${q.max !== undefined && html` max="${q.max}"`} value="${value}"${aria}>`;
  else if (q.type === 'date')
    control = html`<input id="${id}" name="${fieldName(q)}" type="date" value="${value}"${aria}>`;
  else if (q.type === 'file')
    control = html`${kept && html`<p class="kept" id="${id}-kept">${w.keptFile(kept.name)}</p><input type="hidden" name="qk_${q.id}" value="${kept.uploadId}"><input type="hidden" name="qn_${q.id}" value="${kept.name}">`}<input id="${id}" name="qf_${q.id}" type="file" accept="application/pdf,.pdf" data-max-bytes="${maxBytes}"${aria}>`;
  else
    control = html`<input id="${id}" name="${fieldName(q)}" type="text" maxlength="${max}" value="${value}"${aria}>`;
  return html`<div class="question"><label for="${id}">${q.label}${!q.required && html` <span class="hint">(${w.optional})</span>`}</label>${q.helpText && html`<p class="hint" id="${id}-help">${q.helpText}</p>`}${error && html`<p class="error" id="${id}-error">${error}</p>`}${control}</div>`;
}

/** A group of radio buttons (single select, yes/no) or checkboxes (multi select) in a fieldset. */
function group(q: Question, state: QuestionState, w: QuestionWords): SafeHtml {
  const id = controlId(q);
  const error = state.errors[q.id];
  const chosen = new Set(state.values[q.id] ?? []);
  const type = q.type === 'multi_select' ? 'checkbox' : 'radio';
  const described = [q.helpText ? `${id}-help` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const boxes = choices(q, w).map(
    (o, i) =>
      html`<div class="choice"><input type="${type}" id="${id}-${i}" name="${fieldName(q)}" value="${o.value}"${chosen.has(o.value) && html` checked`}${error && html` aria-invalid="true"`}${type === 'radio' && q.required && html` required`}><label for="${id}-${i}">${o.label}</label></div>`,
  );
  return html`<fieldset class="question" id="${id}"${described && html` aria-describedby="${described}"`}><legend>${q.label}${!q.required && html` <span class="hint">(${w.optional})</span>`}</legend>${q.helpText && html`<p class="hint" id="${id}-help">${q.helpText}</p>`}${error && html`<p class="error" id="${id}-error">${error}</p>`}${joinHtml(boxes, '')}</fieldset>`;
}

function control(q: Question, state: QuestionState, w: QuestionWords, maxBytes: number): SafeHtml {
  return q.type === 'single_select' || q.type === 'multi_select' || q.type === 'yes_no'
    ? group(q, state, w)
    : single(q, state, w, maxBytes);
}

/** The styles of the questions (the page's own sheet has none for groups). */
const STYLE = html`<style>fieldset.question{border:1px solid #ccc;border-radius:6px;margin:1rem 0 0;padding:.5rem 1rem .75rem}fieldset.question legend{font-weight:600;padding:0 .25rem}
.choice{display:flex;align-items:center;gap:.5rem;margin:.35rem 0}.choice label{margin:0;font-weight:400}.choice input{width:1.25rem;height:1.25rem;margin:0}
input[type=number],input[type=date]{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:4px;max-width:100%;box-sizing:border-box}
section.voluntary{background:#fff;border:1px solid #ddd;border-radius:8px;padding:.5rem 1rem 1rem;margin:1.5rem 0}</style>`;

/**
 * The questions' part of the form, inserted once by form-view.ts: the hidden utm fields, the
 * job's questions, then the demographic ones in their own section.
 */
export function questionFields(
  questions: readonly Question[],
  state: QuestionState,
  lang: PageLang,
  maxBytes: number,
): SafeHtml {
  const w = WORDS[lang];
  const hidden = (Object.keys(state.utm) as (keyof Utm)[]).map(
    (name) => html`<input type="hidden" name="${name}" value="${state.utm[name]}">`,
  );
  const asked = questions.filter((q) => q.demographic !== true).map((q) => control(q, state, w, maxBytes));
  const voluntary = questions
    .filter((q) => q.demographic === true)
    .map((q) => control(q, state, w, maxBytes));
  if (questions.length === 0) return joinHtml(hidden, '');
  return html`${STYLE}${joinHtml(hidden, '')}${joinHtml(asked, '')}${
    voluntary.length > 0 &&
    html`<section class="voluntary" aria-labelledby="voluntary-heading"><h2 id="voluntary-heading">${w.voluntaryHeading}</h2><p class="hint">${w.voluntaryBody}</p>${joinHtml(voluntary, '')}</section>`
  }`;
}

type TypedAnswers = NonNullable<ApplicationWrite['answers']>;

/** A question's values as the form sent them (repeated fields kept), for the page and the answers. */
export function readQuestionValues(questions: readonly Question[], fields: Form): QuestionState['values'] {
  const values: QuestionState['values'] = {};
  for (const q of questions) {
    const sent = fields.all(fieldName(q)).map((v) => v.slice(0, QUESTION_MAX.longText));
    if (sent.length > 0) values[q.id] = sent;
  }
  return values;
}

/** The files kept from an earlier attempt (their upload ids and names came back hidden). */
export function readKeptFiles(questions: readonly Question[], fields: Form): QuestionState['kept'] {
  const kept: QuestionState['kept'] = {};
  for (const q of questions) {
    const uploadId = fields.get(`qk_${q.id}`);
    if (q.type === 'file' && uploadId)
      kept[q.id] = { uploadId, name: fields.get(`qn_${q.id}`).slice(0, 255) || 'PDF' };
  }
  return kept;
}

/** One question's form value as its typed answer; undefined when left blank. */
function typed(q: Question, values: string[], kept: QuestionState['kept']): unknown {
  const first = values[0]?.trim() ?? '';
  switch (q.type) {
    case 'file':
      return kept[q.id] ? { uploadId: kept[q.id]!.uploadId } : undefined;
    case 'multi_select':
      return values.length > 0 ? values : undefined;
    case 'yes_no':
      if (first === 'yes') return true;
      if (first === 'no') return false;
      return first || undefined;
    case 'number': {
      if (first === '') return undefined;
      const n = Number(first.replace(',', '.'));
      return Number.isFinite(n) ? n : first;
    }
    default:
      return first === '' ? undefined : values[0];
  }
}

/** The form's answers to the job's questions, typed as the API takes them. */
export function typedAnswers(
  questions: readonly Question[],
  values: QuestionState['values'],
  kept: QuestionState['kept'],
): TypedAnswers {
  const answers: TypedAnswers = [];
  for (const q of questions) {
    const answer = typed(q, values[q.id] ?? [], kept);
    if (answer !== undefined) answers.push({ questionId: q.id, answer } as TypedAnswers[number]);
  }
  return answers;
}
