import type { PageLang } from './i18n.ts';

/** Words of the job page's extra facts, the feed's filters and the pages' way-back links. */
export interface ListingWords {
  seniority: string;
  experience: string;
  years: (value: string) => string;
  workStyle: string;
  search: string;
  searchLabel: string;
  category: string;
  anyCategory: string;
  place: string;
  anyPlace: string;
  remoteOnly: string;
  filter: string;
  clearFilters: string;
  results: (n: number) => string;
  noResults: string;
  previous: string;
  backToRole: (title: string) => string;
  allJobs: string;
}

const en: ListingWords = {
  seniority: 'Seniority',
  experience: 'Experience',
  years: (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} years` : v),
  workStyle: 'Work style',
  search: 'Search',
  searchLabel: 'Search jobs',
  category: 'Category',
  anyCategory: 'Any category',
  place: 'Location',
  anyPlace: 'Anywhere',
  remoteOnly: 'Remote only',
  filter: 'Show jobs',
  clearFilters: 'Clear filters',
  results: (n) => (n === 1 ? '1 job on this page' : `${n} jobs on this page`),
  noResults: 'No jobs match these filters.',
  previous: 'First page',
  backToRole: (title) => `Back to the role: ${title}`,
  allJobs: 'See all jobs',
};

const es: ListingWords = {
  seniority: 'Nivel',
  experience: 'Experiencia',
  years: (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} años` : v),
  workStyle: 'Forma de trabajo',
  search: 'Buscar',
  searchLabel: 'Buscar empleos',
  category: 'Categoría',
  anyCategory: 'Cualquier categoría',
  place: 'Ubicación',
  anyPlace: 'Cualquier lugar',
  remoteOnly: 'Solo en remoto',
  filter: 'Ver empleos',
  clearFilters: 'Quitar filtros',
  results: (n) => (n === 1 ? '1 empleo en esta página' : `${n} empleos en esta página`),
  noResults: 'Ningún empleo coincide con estos filtros.',
  previous: 'Primera página',
  backToRole: (title) => `Volver al puesto: ${title}`,
  allJobs: 'Ver todos los empleos',
};

const fr: ListingWords = {
  seniority: 'Niveau',
  experience: 'Expérience',
  years: (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} ans` : v),
  workStyle: 'Mode de travail',
  search: 'Rechercher',
  searchLabel: 'Rechercher des offres',
  category: 'Catégorie',
  anyCategory: 'Toutes les catégories',
  place: 'Lieu',
  anyPlace: 'Partout',
  remoteOnly: 'Télétravail uniquement',
  filter: 'Voir les offres',
  clearFilters: 'Effacer les filtres',
  results: (n) => (n === 1 ? '1 offre sur cette page' : `${n} offres sur cette page`),
  noResults: 'Aucune offre ne correspond à ces filtres.',
  previous: 'Première page',
  backToRole: (title) => `Retour au poste : ${title}`,
  allJobs: 'Voir toutes les offres',
};

const pt: ListingWords = {
  seniority: 'Nível',
  experience: 'Experiência',
  years: (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} anos` : v),
  workStyle: 'Modo de trabalho',
  search: 'Pesquisar',
  searchLabel: 'Pesquisar vagas',
  category: 'Categoria',
  anyCategory: 'Qualquer categoria',
  place: 'Localização',
  anyPlace: 'Qualquer lugar',
  remoteOnly: 'Só remoto',
  filter: 'Ver vagas',
  clearFilters: 'Limpar filtros',
  results: (n) => (n === 1 ? '1 vaga nesta página' : `${n} vagas nesta página`),
  noResults: 'Nenhuma vaga corresponde a estes filtros.',
  previous: 'Primeira página',
  backToRole: (title) => `Voltar à vaga: ${title}`,
  allJobs: 'Ver todas as vagas',
};

export const LISTING_WORDS: Record<PageLang, ListingWords> = { en, es, fr, pt };

const REGION_NAMES = new Map<PageLang, Intl.DisplayNames>();

/** A two-letter country code as the page's language names it (`AU` → "Australia"); else as written. */
export function countryName(lang: PageLang, country: string): string {
  if (!/^[A-Za-z]{2}$/.test(country)) return country;
  let names = REGION_NAMES.get(lang);
  if (!names) {
    names = new Intl.DisplayNames([lang], { type: 'region' });
    REGION_NAMES.set(lang, names);
  }
  try {
    return names.of(country.toUpperCase()) ?? country;
  } catch {
    return country;
  }
}
