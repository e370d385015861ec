// The virtual-CV builder (issue 5, item 2): the text layer of a checked PDF → a JSON Resume
// document with partial ISO dates and per-field confidence (docs/virtual-cv.md).
//
// It re-implements the approach of OpenResume's parser (text items → lines → sections → feature
// scores; research/cv-anchors.md §1) without its code, and fixes its known gaps: reading order
// and two columns (layout.ts), headings in en/es/fr/pt (sections.ts), international phones and
// places (contact.ts), dates in four languages (dates.ts), date-anchored roles (entries.ts), and
// the name and email sent with the application used as a prior.
//
// Pure and synchronous: no I/O, no clock. It never throws: odd input gives an emptier CV with
// lower confidence and a warning.

import type { PdfPage } from '../pdf/types.ts';
import { extractBasics, fillFromPrior } from './basics.ts';
import { extractEducation, extractWork } from './entries.ts';
import { type Line, layoutPages } from './layout.ts';
import { allLanguages, extractLanguages, extractSkills, parseLanguage } from './lists.ts';
import { findSections, matchHeading, type Section } from './sections.ts';
import { clamp01, normKey } from './text.ts';
import {
  type CvPrior,
  VIRTUAL_CV_SCHEMA_VERSION,
  type VirtualCv,
  type VirtualCvLanguage,
  type VirtualCvSkill,
} from './types.ts';

export type {
  BasicsField,
  CvLanguage,
  CvPrior,
  EducationField,
  FieldMeta,
  FieldOrigin,
  PartialIsoDate,
  SectionKind,
  VirtualCv,
  VirtualCvBasics,
  VirtualCvEducation,
  VirtualCvLanguage,
  VirtualCvLocation,
  VirtualCvMeta,
  VirtualCvProfile,
  VirtualCvSkill,
  VirtualCvWork,
  WorkField,
} from './types.ts';
export { VIRTUAL_CV_SCHEMA_VERSION } from './types.ts';

// More pages than the PDF check allows are never expected; the cap bounds work on odd input.
const MAX_PAGES = 20;

export function buildVirtualCv(pages: PdfPage[], prior: CvPrior = {}): VirtualCv {
  const pageList = Array.isArray(pages) ? pages.slice(0, MAX_PAGES) : [];
  try {
    return build(pageList, sanitisePrior(prior));
  } catch {
    // A bug must not fail the background task: report an empty CV the reviewer can see is empty.
    const cv = emptyCv(pageList.length);
    cv.meta.x.warnings.push('builder_error');
    return cv;
  }
}

function sanitisePrior(prior: CvPrior | undefined): CvPrior {
  const out: CvPrior = {};
  if (typeof prior?.name === 'string' && prior.name.trim()) out.name = prior.name.trim();
  if (typeof prior?.email === 'string' && prior.email.trim()) out.email = prior.email.trim();
  if (prior?.locale === 'en' || prior?.locale === 'es' || prior?.locale === 'fr' || prior?.locale === 'pt') {
    out.locale = prior.locale;
  }
  return out;
}

function emptyCv(pages: number): VirtualCv {
  return {
    basics: { profiles: [], x: { fields: {} } },
    work: [],
    education: [],
    skills: [],
    languages: [],
    meta: {
      version: VIRTUAL_CV_SCHEMA_VERSION,
      x: {
        pages,
        layout: 'one_column',
        columnsPerPage: [],
        sections: [],
        confidence: 0,
        warnings: [],
      },
    },
  };
}

function build(pages: PdfPage[], prior: CvPrior): VirtualCv {
  const cv = emptyCv(pages.length);
  const warnings = cv.meta.x.warnings;
  const layouts = layoutPages(pages);
  cv.meta.x.columnsPerPage = layouts.map((l) => l.columns);
  cv.meta.x.layout = layouts.some((l) => l.columns === 2) ? 'two_column' : 'one_column';
  const lines = dropFurniture(layouts.flatMap((l) => l.lines));
  lines.forEach((line, i) => {
    line.index = i;
  });
  if (prior.locale) cv.meta.x.language = prior.locale;
  if (lines.length === 0) {
    warnings.push('no_text');
    fillFromPrior(cv.basics, prior, warnings);
    return cv;
  }

  const { sections, language } = findSections(lines, prior.locale);
  if (language) cv.meta.x.language = language;
  cv.meta.x.sections = sections
    .filter((s) => s.heading)
    .map((s) => ({ kind: s.kind, heading: s.headingText ?? s.heading!.text, page: s.heading!.page }));

  const of = (...kinds: Section['kind'][]) => sections.filter((s) => kinds.includes(s.kind));
  const headerLines = of('header', 'contact').flatMap((s) => s.lines);

  extractBasics(cv.basics, lines, headerLines, of('summary'), prior, warnings);
  cv.work = of('work').flatMap((s) => extractWork(s.lines));
  cv.education = of('education').flatMap((s) => extractEducation(s.lines));
  const skills = of('skills').flatMap((s) => extractSkills(s.lines));
  cv.languages = collectLanguages(sections, skills);
  cv.skills = skills;

  if (of('work').length === 0) warnings.push('no_work_section');
  if (of('education').length === 0) warnings.push('no_education_section');
  cv.meta.x.confidence = overallConfidence(cv);
  return cv;
}

/**
 * The languages sections, plus languages listed elsewhere: a "Languages: English, Spanish" entry
 * of a skills list (moved out of `skills`), or such a line under "Additional information".
 */
function collectLanguages(sections: Section[], skills: VirtualCvSkill[]): VirtualCvLanguage[] {
  const languages = sections.filter((s) => s.kind === 'languages').flatMap((s) => extractLanguages(s.lines));
  const add = (found: VirtualCvLanguage[]) => {
    for (const parsed of found) {
      if (!languages.some((l) => normKey(l.language) === normKey(parsed.language))) languages.push(parsed);
    }
  };
  for (const skill of [...skills]) {
    if (matchHeading(skill.name)?.kind !== 'languages' || !skill.keywords || !allLanguages(skill.keywords))
      continue;
    skills.splice(skills.indexOf(skill), 1);
    add(skill.keywords.flatMap((k) => parseLanguage(k) ?? []));
  }
  for (const section of sections) {
    if (section.kind === 'languages' || section.kind === 'skills') continue;
    for (const line of section.lines) {
      const rest = LANGUAGES_LABEL.exec(line.text)?.[1];
      if (rest) add(extractLanguages([{ ...line, text: rest, parts: [{ ...line.parts[0]!, text: rest }] }]));
    }
  }
  return languages;
}

const LANGUAGES_LABEL = /^\s*(?:languages?|idiomas?|lenguas|langues?|l[ií]nguas?)\s*:\s*(.+)$/iu;

const PAGE_NUMBER =
  /^(?:page|p[aá]gina|pag\.?|p[aá]g\.?|p\.)?\s*\d{1,2}\s*(?:(?:\/|of|de|sur|di)\s*\d{1,2})?$/iu;

/**
 * Page numbers, and running headers or footers: the top or bottom two lines of a later page
 * whose text already appeared earlier (the name repeated at the top of page 2).
 */
function dropFurniture(lines: Line[]): Line[] {
  const edges = new Set<Line>();
  for (const pageNo of new Set(lines.map((l) => l.page))) {
    const byY = lines.filter((l) => l.page === pageNo).sort((a, b) => b.y - a.y);
    for (const line of [...byY.slice(0, 2), ...byY.slice(-2)]) edges.add(line);
  }
  const seen = new Set<string>();
  const kept: Line[] = [];
  for (const line of lines) {
    if (PAGE_NUMBER.test(line.text.trim())) continue;
    const k = normKey(line.text);
    if (line.page > 1 && edges.has(line) && seen.has(k)) continue;
    seen.add(k);
    kept.push(line);
  }
  return kept;
}

function overallConfidence(cv: VirtualCv): number {
  const f = cv.basics.x.fields;
  const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
  const contact = Math.max(f.email?.confidence ?? 0, f.phone?.confidence ?? 0);
  const work = mean(cv.work.map((w) => mean(Object.values(w.x.fields).map((m) => m.confidence))));
  const education = mean(cv.education.map((e) => mean(Object.values(e.x.fields).map((m) => m.confidence))));
  return clamp01(0.3 * (f.name?.confidence ?? 0) + 0.2 * contact + 0.3 * work + 0.2 * education);
}
