import type { CATEGORIES } from '../../contract/job.ts';
import { byLanguage, type PageLang, type Translated } from './i18n.ts';

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
  /** The careers page's heading. */
  jobsAt: (company: string) => string;
  /** What a careers page without live roles says. */
  noOpenings: (company: string) => string;
}

const WORDS: Translated<ListingWords> = {
  seniority: ['Seniority', 'Nivel', 'Niveau', 'Nível'],
  experience: ['Experience', 'Experiencia', 'Expérience', 'Experiência'],
  years: [
    (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} years` : v),
    (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} años` : v),
    (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} ans` : v),
    (v) => (/^\d+(?:[-–+]\d*)?\+?$/.test(v.trim()) ? `${v.trim()} anos` : v),
  ],
  workStyle: ['Work style', 'Forma de trabajo', 'Mode de travail', 'Modo de trabalho'],
  search: ['Search', 'Buscar', 'Rechercher', 'Pesquisar'],
  searchLabel: ['Search jobs', 'Buscar empleos', 'Rechercher des offres', 'Pesquisar vagas'],
  category: ['Category', 'Categoría', 'Catégorie', 'Categoria'],
  anyCategory: ['Any category', 'Cualquier categoría', 'Toutes les catégories', 'Qualquer categoria'],
  place: ['Location', 'Ubicación', 'Lieu', 'Localização'],
  anyPlace: ['Anywhere', 'Cualquier lugar', 'Partout', 'Qualquer lugar'],
  remoteOnly: ['Remote only', 'Solo en remoto', 'Télétravail uniquement', 'Só remoto'],
  filter: ['Show jobs', 'Ver empleos', 'Voir les offres', 'Ver vagas'],
  clearFilters: ['Clear filters', 'Quitar filtros', 'Effacer les filtres', 'Limpar filtros'],
  results: [
    (n) => (n === 1 ? '1 job on this page' : `${n} jobs on this page`),
    (n) => (n === 1 ? '1 empleo en esta página' : `${n} empleos en esta página`),
    (n) => (n === 1 ? '1 offre sur cette page' : `${n} offres sur cette page`),
    (n) => (n === 1 ? '1 vaga nesta página' : `${n} vagas nesta página`),
  ],
  noResults: [
    'No jobs match these filters.',
    'Ningún empleo coincide con estos filtros.',
    'Aucune offre ne correspond à ces filtres.',
    'Nenhuma vaga corresponde a estes filtros.',
  ],
  previous: ['First page', 'Primera página', 'Première page', 'Primeira página'],
  backToRole: [
    (title) => `Back to the role: ${title}`,
    (title) => `Volver al puesto: ${title}`,
    (title) => `Retour au poste : ${title}`,
    (title) => `Voltar à vaga: ${title}`,
  ],
  allJobs: ['See all jobs', 'Ver todos los empleos', 'Voir toutes les offres', 'Ver todas as vagas'],
  jobsAt: [
    (c) => `Jobs at ${c}`,
    (c) => `Empleos en ${c}`,
    (c) => `Offres chez ${c}`,
    (c) => `Vagas na ${c}`,
  ],
  noOpenings: [
    (c) => `${c} has no open roles right now.`,
    (c) => `${c} no tiene puestos abiertos en este momento.`,
    (c) => `${c} n’a aucun poste ouvert pour le moment.`,
    (c) => `${c} não tem vagas abertas no momento.`,
  ],
};

export const LISTING_WORDS: Record<PageLang, ListingWords> = byLanguage(WORDS);

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
