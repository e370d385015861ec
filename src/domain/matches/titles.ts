// Job titles as sets of concept words, across English, Spanish, French and Portuguese, so that
// "Desarrollador Backend Senior" and "Senior Backend Engineer" share `backend` and `developer`, and
// the seniority words are read apart from the title.
import { fold } from './skills.ts';

const CONCEPTS: Record<string, string[]> = {
  developer: [
    'developer',
    'engineer',
    'programmer',
    'desarrollador',
    'desarrolladora',
    'programador',
    'programadora',
    'ingeniero',
    'ingeniera',
    'developpeur',
    'developpeuse',
    'ingenieur',
    'ingenieure',
    'desenvolvedor',
    'desenvolvedora',
    'engenheiro',
    'engenheira',
    'programmeur',
    'dev',
    'swe',
  ],
  backend: ['backend', 'back-end', 'back end', 'server side', 'server-side'],
  frontend: ['frontend', 'front-end', 'front end', 'ui developer', 'integrateur', 'web developer'],
  fullstack: ['fullstack', 'full-stack', 'full stack'],
  software: ['software', 'logiciel', 'logiciels'],
  devops: [
    'devops',
    'dev ops',
    'sre',
    'site reliability',
    'platform',
    'plataforma',
    'plateforme',
    'infrastructure',
    'cloud',
  ],
  data: ['data', 'datos', 'donnees', 'dados', 'analytics'],
  scientist: ['scientist', 'cientifico', 'cientifica', 'scientifique', 'cientista', 'machine learning', 'ml'],
  designer: ['designer', 'disenador', 'disenadora', 'ux', 'ui', 'ux/ui', 'ui/ux'],
  product: ['product', 'producto', 'produit', 'produto'],
  marketing: ['marketing', 'growth', 'seo', 'mercadotecnia', 'marketeer', 'marketer'],
  digital: ['digital', 'numerique'],
  sales: [
    'sales',
    'account executive',
    'business development',
    'ventas',
    'venta',
    'comercial',
    'commercial',
    'vendas',
    'vente',
    'ejecutivo de cuentas',
    'executivo de vendas',
    'charge d affaires',
    'representante comercial',
    'sales representative',
  ],
  accountant: [
    'accountant',
    'accounting',
    'contable',
    'contador',
    'contadora',
    'comptable',
    'contabilista',
    'contabil',
    'finance',
    'financial',
    'financiero',
    'financiera',
    'financeiro',
    'financier',
    'controleur de gestion',
  ],
  nurse: [
    'nurse',
    'nursing',
    'enfermera',
    'enfermero',
    'infirmiere',
    'infirmier',
    'enfermeira',
    'enfermeiro',
  ],
  intensive: ['icu', 'intensive care', 'uci', 'reanimation', 'uti', 'cuidados intensivos'],
  construction: [
    'construction',
    'obra',
    'obras',
    'travaux',
    'site engineer',
    'civil',
    'chantier',
    'conducteur de travaux',
    'jefe de obra',
    'diretor de obra',
  ],
  manager: [
    'manager',
    'jefe',
    'jefa',
    'responsable',
    'gerente',
    'director',
    'directora',
    'diretor',
    'head of',
  ],
  hr: ['hr', 'human resources', 'recursos humanos', 'rh', 'ressources humaines', 'people', 'talent'],
  recruiter: [
    'recruiter',
    'recruitment',
    'talent acquisition',
    'recrutement',
    'seleccion',
    'recrutadora',
    'recrutador',
    'charge de recrutement',
    'chargee de recrutement',
    'charge e de recrutement',
  ],
  logistics: [
    'logistics',
    'logistica',
    'logistique',
    'warehouse',
    'almacen',
    'entrepot',
    'armazem',
    'supply chain',
  ],
  teacher: [
    'teacher',
    'profesor',
    'profesora',
    'professeur',
    'enseignant',
    'enseignante',
    'professor',
    'professora',
  ],
  cook: ['chef', 'cook', 'cocinero', 'cocinera', 'cuisine', 'cozinheiro', 'cozinha', 'cocina', 'sous chef'],
  support: [
    'support',
    'customer success',
    'customer service',
    'atencion al cliente',
    'conseiller clientele',
    'suporte',
    'service client',
    'help desk',
  ],
  analyst: ['analyst', 'analista', 'analyste'],
};

const SENIORITY: Record<string, number> = {
  intern: 0,
  trainee: 0,
  stagiaire: 0,
  becario: 0,
  becaria: 0,
  estagiario: 0,
  estagiaria: 0,
  junior: 1,
  jr: 1,
  debutant: 1,
  mid: 2,
  'mid-level': 2,
  'mid level': 2,
  confirme: 2,
  confirmee: 2,
  pleno: 2,
  intermediate: 2,
  senior: 3,
  sr: 3,
  experimente: 3,
  lead: 4,
  principal: 4,
  staff: 4,
  lider: 4,
  head: 4,
};

// Longest phrases first, so "customer success" wins over "support" alone.
const PHRASES = Object.entries(CONCEPTS)
  .flatMap(([concept, words]) => words.map((word) => [word, concept] as const))
  .sort((a, b) => b[0].length - a[0].length);

/** The concepts of a title: ["backend", "developer"] for "Ingeniero de Software Backend Senior". */
export function titleConcepts(title: string): string[] {
  let rest = ` ${fold(title).replace(/[()/,|-]+/g, ' ')} `;
  const found = new Set<string>();
  for (const [phrase, concept] of PHRASES) {
    const needle = ` ${phrase.replace(/[-/]/g, ' ')} `;
    if (rest.includes(needle)) {
      found.add(concept);
      rest = rest.split(needle).join(' ');
    }
  }
  return [...found];
}

/** Seniority 0 (intern) … 4 (lead) named in a title or a seniority field; null when none is. */
export function seniorityOf(text: string | null | undefined): number | null {
  if (!text) return null;
  const words = fold(text).replace(/[()/,|]+/g, ' ');
  let best: number | null = null;
  for (const [word, level] of Object.entries(SENIORITY)) {
    if (` ${words} `.includes(` ${word} `)) best = Math.max(best ?? -1, level);
  }
  return best;
}

/** Dice overlap of two concept sets, 0..1. */
export function titleSimilarity(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  const shared = b.filter((concept) => set.has(concept)).length;
  return (2 * shared) / (a.length + b.length);
}
