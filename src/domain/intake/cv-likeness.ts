const HEADINGS = [
  'experience',
  'work experience',
  'employment',
  'education',
  'skills',
  'languages',
  'summary',
  'profile',
  'experiencia',
  'educación',
  'formación',
  'habilidades',
  'idiomas',
  'perfil',
  'expérience',
  'formation',
  'compétences',
  'langues',
  'profil',
  'experiência',
  'educação',
  'formação',
  'competências',
  'idiomas',
];
const EMAIL = /[^\s@]+@[^\s@]+\.[a-z]{2,}/i;
const PHONE = /\+?\d[\d\s().-]{7,}\d/;
const YEAR = /\b(19[5-9]\d|20\d\d)\b/;

/**
 * Whether a readable PDF reads as a CV: enough words, and at least two of contact details, dates
 * and CV section headings (in en, es, fr or pt). An invoice or a blank form fails it.
 */
export function looksLikeCv(pages: { items: { str: string }[] }[]): boolean {
  const text = pages.map((page) => page.items.map((item) => item.str).join(' ')).join('\n');
  const words = text.split(/\s+/).filter((w) => /\p{L}{2,}/u.test(w)).length;
  if (words < 40) return false;
  const lower = text.toLowerCase();
  const signals = [
    EMAIL.test(text) || PHONE.test(text),
    YEAR.test(text),
    HEADINGS.some((heading) => new RegExp(`(^|[\\s:])${heading}([\\s:]|$)`, 'u').test(lower)),
  ].filter(Boolean).length;
  return signals >= 2;
}
