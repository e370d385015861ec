import type { CATEGORIES } from '../../contract/job.ts';
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

type Category = (typeof CATEGORIES)[number];

/** The feed's category filter, in the page's language. */
export const CATEGORY_NAMES: Record<PageLang, Record<Category, string>> = {
  en: {
    engineering: 'Engineering',
    data: 'Data',
    product: 'Product',
    design: 'Design',
    marketing: 'Marketing',
    sales: 'Sales',
    customer_success: 'Customer success',
    operations: 'Operations',
    finance: 'Finance',
    hr_people: 'HR and people',
    legal: 'Legal',
    healthcare: 'Healthcare',
    education: 'Education',
    hospitality: 'Hospitality',
    retail: 'Retail',
    logistics: 'Logistics',
    construction_trades: 'Construction and trades',
    manufacturing: 'Manufacturing',
    admin_support: 'Administration',
    other: 'Other',
  },
  es: {
    engineering: 'Ingeniería',
    data: 'Datos',
    product: 'Producto',
    design: 'Diseño',
    marketing: 'Marketing',
    sales: 'Ventas',
    customer_success: 'Atención al cliente',
    operations: 'Operaciones',
    finance: 'Finanzas',
    hr_people: 'Recursos humanos',
    legal: 'Legal',
    healthcare: 'Salud',
    education: 'Educación',
    hospitality: 'Hostelería',
    retail: 'Comercio',
    logistics: 'Logística',
    construction_trades: 'Construcción y oficios',
    manufacturing: 'Industria',
    admin_support: 'Administración',
    other: 'Otros',
  },
  fr: {
    engineering: 'Ingénierie',
    data: 'Données',
    product: 'Produit',
    design: 'Design',
    marketing: 'Marketing',
    sales: 'Ventes',
    customer_success: 'Relation client',
    operations: 'Opérations',
    finance: 'Finance',
    hr_people: 'Ressources humaines',
    legal: 'Juridique',
    healthcare: 'Santé',
    education: 'Éducation',
    hospitality: 'Hôtellerie-restauration',
    retail: 'Commerce',
    logistics: 'Logistique',
    construction_trades: 'Bâtiment et métiers',
    manufacturing: 'Industrie',
    admin_support: 'Administration',
    other: 'Autres',
  },
  pt: {
    engineering: 'Engenharia',
    data: 'Dados',
    product: 'Produto',
    design: 'Design',
    marketing: 'Marketing',
    sales: 'Vendas',
    customer_success: 'Apoio ao cliente',
    operations: 'Operações',
    finance: 'Finanças',
    hr_people: 'Recursos humanos',
    legal: 'Jurídico',
    healthcare: 'Saúde',
    education: 'Educação',
    hospitality: 'Hotelaria e restauração',
    retail: 'Comércio',
    logistics: 'Logística',
    construction_trades: 'Construção e ofícios',
    manufacturing: 'Indústria',
    admin_support: 'Administração',
    other: 'Outros',
  },
};
