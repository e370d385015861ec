// Writes the labelled set that measures match ranking (issue 19, item 5) into test/fixtures/matches/:
//   roles.json       the roles (job words as the API takes them) and their split (tuned / held-out);
//   pool.json        the pool CVs as descriptions; test/fixtures/matches/render-cv.ts draws each as a
//                    PDF with PDFKit at run time (190 PDFs would be ~2 MB of repository for nothing);
//   judgements.json  graded relevance (0–3) of every CV for every role.
//
// The judgements come from each CV's latent occupation, level and country, which are kept in
// pool.json under `truth` and never read by the ranker (it sees the PDF only). The rule, fixed
// before any ranking code existed:
//   3  same occupation, level within one step of the role's, and the place fits (same country for
//      an onsite or hybrid role; anywhere for a remote one);
//   2  same occupation, but the level is two or more steps away or the place does not fit;
//   1  a related occupation (backend–devops, backend–data engineer, backend–frontend,
//      frontend–product designer, data engineer–data scientist, marketing–sales, sales–support)
//      whose place fits;
//   0  otherwise.
// The CV text carries the occupation only through noisy signals: titles in the CV's language,
// a subset of the occupation's skills in spelling variants (Postgres, K8s, React.js…), generic
// skills, and for one in five people an earlier job in another occupation.
//
// Deterministic (seeded); re-running rewrites the same files.
// Usage: node scripts/make-match-set.ts

import { writeFileSync } from 'node:fs';

type Lang = 'en' | 'es' | 'fr' | 'pt';
type Occ =
  | 'backend'
  | 'frontend'
  | 'devops'
  | 'data_engineer'
  | 'data_scientist'
  | 'product_designer'
  | 'marketing'
  | 'sales'
  | 'accountant'
  | 'nurse'
  | 'construction_pm'
  | 'hr'
  | 'logistics'
  | 'teacher'
  | 'chef'
  | 'support';

let seed = 19_2026;
function rand(): number {
  seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
  return seed / 2_147_483_648;
}
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
function sample<T>(list: readonly T[], n: number): T[] {
  const copy = [...list];
  const out: T[] = [];
  while (out.length < n && copy.length > 0)
    out.push(copy.splice(Math.floor(rand() * copy.length), 1)[0] as T);
  return out;
}

const TITLES: Record<Occ, Record<Lang, string[]>> = {
  backend: {
    en: ['Backend Engineer', 'Backend Developer', 'Software Engineer (Backend)'],
    es: ['Desarrollador Backend', 'Ingeniero de Software Backend'],
    fr: ['Développeur Backend', 'Ingénieur Logiciel Backend'],
    pt: ['Desenvolvedor Backend', 'Engenheiro de Software Backend'],
  },
  frontend: {
    en: ['Frontend Engineer', 'Front-End Developer', 'UI Developer'],
    es: ['Desarrollador Frontend', 'Desarrolladora Front-end'],
    fr: ['Développeur Front-end', 'Intégrateur Front-end'],
    pt: ['Desenvolvedor Front-end', 'Desenvolvedora Frontend'],
  },
  devops: {
    en: ['DevOps Engineer', 'Site Reliability Engineer', 'Platform Engineer'],
    es: ['Ingeniero DevOps', 'Ingeniero de Plataforma'],
    fr: ['Ingénieur DevOps', 'Ingénieur SRE'],
    pt: ['Engenheiro DevOps', 'Engenheiro de Plataforma'],
  },
  data_engineer: {
    en: ['Data Engineer', 'Analytics Engineer'],
    es: ['Ingeniero de Datos', 'Ingeniera de Datos'],
    fr: ['Ingénieur Data', 'Ingénieur de données'],
    pt: ['Engenheiro de Dados', 'Engenheira de Dados'],
  },
  data_scientist: {
    en: ['Data Scientist', 'Machine Learning Engineer'],
    es: ['Científico de Datos', 'Científica de Datos'],
    fr: ['Data Scientist', 'Scientifique des données'],
    pt: ['Cientista de Dados'],
  },
  product_designer: {
    en: ['Product Designer', 'UX Designer', 'UX/UI Designer'],
    es: ['Diseñador de Producto', 'Diseñadora UX'],
    fr: ['Designer Produit', 'Designer UX'],
    pt: ['Designer de Produto', 'Designer UX'],
  },
  marketing: {
    en: ['Digital Marketing Specialist', 'Marketing Manager', 'Growth Marketer'],
    es: ['Especialista en Marketing Digital', 'Responsable de Marketing'],
    fr: ['Chargé de Marketing Digital', 'Responsable Marketing'],
    pt: ['Especialista em Marketing Digital', 'Gerente de Marketing'],
  },
  sales: {
    en: ['Account Executive', 'Sales Representative', 'Business Development Manager'],
    es: ['Ejecutivo de Cuentas', 'Comercial B2B'],
    fr: ['Commercial B2B', "Chargé d'affaires"],
    pt: ['Executivo de Vendas', 'Representante Comercial'],
  },
  accountant: {
    en: ['Accountant', 'Financial Accountant', 'Finance Analyst'],
    es: ['Contable', 'Analista Financiero'],
    fr: ['Comptable', 'Contrôleur de gestion'],
    pt: ['Contabilista', 'Analista Financeiro'],
  },
  nurse: {
    en: ['Registered Nurse', 'ICU Nurse'],
    es: ['Enfermera', 'Enfermero de UCI'],
    fr: ['Infirmière', 'Infirmier en réanimation'],
    pt: ['Enfermeira', 'Enfermeiro'],
  },
  construction_pm: {
    en: ['Construction Project Manager', 'Site Engineer'],
    es: ['Jefe de Obra', 'Ingeniera de Obra'],
    fr: ['Conducteur de travaux', 'Ingénieur travaux'],
    pt: ['Engenheiro Civil', 'Diretor de Obra'],
  },
  hr: {
    en: ['HR Business Partner', 'Talent Acquisition Specialist', 'Recruiter'],
    es: ['Técnico de Recursos Humanos', 'Responsable de Selección'],
    fr: ['Chargée de recrutement', 'Responsable RH'],
    pt: ['Técnica de Recursos Humanos', 'Recrutadora'],
  },
  logistics: {
    en: ['Warehouse Supervisor', 'Logistics Coordinator'],
    es: ['Coordinador de Logística', 'Jefe de Almacén'],
    fr: ['Responsable logistique', "Chef d'entrepôt"],
    pt: ['Coordenador de Logística', 'Supervisor de Armazém'],
  },
  teacher: {
    en: ['Secondary School Teacher', 'Mathematics Teacher'],
    es: ['Profesor de Secundaria', 'Profesora de Matemáticas'],
    fr: ['Professeur de mathématiques', 'Enseignante'],
    pt: ['Professor de Matemática', 'Professora do Ensino Secundário'],
  },
  chef: {
    en: ['Sous Chef', 'Head Chef', 'Chef de Partie'],
    es: ['Jefe de Cocina', 'Cocinero'],
    fr: ['Chef de cuisine', 'Second de cuisine'],
    pt: ['Chefe de Cozinha', 'Cozinheiro'],
  },
  support: {
    en: ['Customer Support Specialist', 'Customer Success Manager'],
    es: ['Agente de Atención al Cliente', 'Customer Success Manager'],
    fr: ['Conseiller clientèle', 'Chargé de support client'],
    pt: ['Analista de Suporte ao Cliente', 'Customer Success'],
  },
};

// Each skill as the variants people write; a language-keyed entry gives the words per language.
type SkillVariants = string[] | Record<Lang, string[]>;
const SKILLS: Record<Occ, SkillVariants[]> = {
  backend: [
    ['Go', 'Golang'],
    ['Python'],
    ['PostgreSQL', 'Postgres', 'postgresql'],
    ['Kubernetes', 'K8s'],
    ['Docker'],
    ['gRPC'],
    ['REST APIs', 'REST'],
    ['Redis'],
    ['Kafka', 'Apache Kafka'],
    ['AWS', 'Amazon Web Services'],
    ['Java'],
    ['Node.js', 'NodeJS', 'Node'],
  ],
  frontend: [
    ['JavaScript', 'JS', 'Javascript'],
    ['TypeScript', 'TS'],
    ['React', 'React.js', 'ReactJS'],
    ['CSS', 'CSS3'],
    ['HTML', 'HTML5'],
    ['Next.js', 'NextJS'],
    ['Vue.js', 'Vue'],
    ['Webpack'],
    {
      en: ['Accessibility', 'WCAG'],
      es: ['Accesibilidad web', 'WCAG'],
      fr: ['Accessibilité', 'WCAG'],
      pt: ['Acessibilidade', 'WCAG'],
    },
    ['Jest'],
  ],
  devops: [
    ['Kubernetes', 'K8s'],
    ['Terraform'],
    ['AWS', 'Amazon Web Services'],
    ['Docker'],
    ['Linux'],
    ['Prometheus'],
    ['CI/CD'],
    ['Ansible'],
    ['Bash'],
    ['Helm'],
    ['GCP', 'Google Cloud'],
  ],
  data_engineer: [
    ['Python'],
    ['SQL'],
    ['Apache Spark', 'Spark', 'PySpark'],
    ['Airflow', 'Apache Airflow'],
    ['dbt'],
    ['Kafka'],
    ['Snowflake'],
    ['PostgreSQL', 'Postgres'],
    ['BigQuery'],
    ['ETL'],
  ],
  data_scientist: [
    ['Python'],
    {
      en: ['Machine Learning', 'ML'],
      es: ['Aprendizaje automático', 'Machine Learning'],
      fr: ['Apprentissage automatique', 'Machine Learning'],
      pt: ['Aprendizado de máquina', 'Machine Learning'],
    },
    ['pandas'],
    ['scikit-learn', 'sklearn'],
    {
      en: ['Statistics'],
      es: ['Estadística'],
      fr: ['Statistiques'],
      pt: ['Estatística'],
    },
    ['SQL'],
    ['TensorFlow'],
    ['R'],
    ['PyTorch'],
    ['NLP'],
  ],
  product_designer: [
    ['Figma'],
    {
      en: ['User research', 'UX research'],
      es: ['Investigación de usuarios', 'UX research'],
      fr: ['Recherche utilisateur', 'UX research'],
      pt: ['Pesquisa com usuários', 'UX research'],
    },
    { en: ['Prototyping'], es: ['Prototipado'], fr: ['Prototypage'], pt: ['Prototipagem'] },
    {
      en: ['Design systems'],
      es: ['Sistemas de diseño'],
      fr: ['Design system'],
      pt: ['Design system'],
    },
    ['Sketch'],
    {
      en: ['Usability testing'],
      es: ['Pruebas de usabilidad'],
      fr: ["Tests d'utilisabilité"],
      pt: ['Testes de usabilidade'],
    },
    ['Adobe XD'],
    ['Wireframing', 'Wireframes'],
  ],
  marketing: [
    ['SEO'],
    ['Google Analytics', 'GA4'],
    {
      en: ['Content marketing'],
      es: ['Marketing de contenidos'],
      fr: ['Marketing de contenu'],
      pt: ['Marketing de conteúdo'],
    },
    ['HubSpot'],
    ['Google Ads', 'SEM'],
    { en: ['Email marketing'], es: ['Email marketing'], fr: ['Emailing'], pt: ['Email marketing'] },
    { en: ['Copywriting'], es: ['Redacción publicitaria'], fr: ['Rédaction web'], pt: ['Copywriting'] },
    { en: ['Social media'], es: ['Redes sociales'], fr: ['Réseaux sociaux'], pt: ['Redes sociais'] },
  ],
  sales: [
    ['Salesforce'],
    { en: ['B2B sales'], es: ['Venta B2B', 'Ventas B2B'], fr: ['Vente B2B'], pt: ['Vendas B2B'] },
    { en: ['Negotiation'], es: ['Negociación'], fr: ['Négociation'], pt: ['Negociação'] },
    ['CRM'],
    {
      en: ['Lead generation'],
      es: ['Prospección', 'Generación de leads'],
      fr: ['Prospection'],
      pt: ['Prospecção'],
    },
    {
      en: ['Account management'],
      es: ['Gestión de cuentas'],
      fr: ['Gestion de comptes'],
      pt: ['Gestão de contas'],
    },
    ['Pipedrive'],
  ],
  accountant: [
    ['IFRS', 'NIIF'],
    ['SAP', 'SAP FI'],
    ['Excel', 'Microsoft Excel'],
    {
      en: ['Financial reporting'],
      es: ['Reporting financiero', 'Estados financieros'],
      fr: ['Reporting financier'],
      pt: ['Relato financeiro'],
    },
    { en: ['Audit'], es: ['Auditoría'], fr: ['Audit'], pt: ['Auditoria'] },
    { en: ['Tax'], es: ['Fiscalidad'], fr: ['Fiscalité'], pt: ['Fiscalidade'] },
    { en: ['Budgeting'], es: ['Presupuestos'], fr: ['Budget'], pt: ['Orçamentação'] },
    {
      en: ['Accounts payable'],
      es: ['Cuentas a pagar'],
      fr: ['Comptabilité fournisseurs'],
      pt: ['Contas a pagar'],
    },
  ],
  nurse: [
    {
      en: ['Patient care'],
      es: ['Atención al paciente', 'Cuidados de enfermería'],
      fr: ['Soins aux patients'],
      pt: ['Cuidados ao doente'],
    },
    { en: ['Triage'], es: ['Triaje'], fr: ['Triage'], pt: ['Triagem'] },
    {
      en: ['Medication administration'],
      es: ['Administración de medicamentos'],
      fr: ['Administration des médicaments'],
      pt: ['Administração de medicação'],
    },
    { en: ['ICU', 'Intensive care'], es: ['UCI', 'Cuidados intensivos'], fr: ['Réanimation'], pt: ['UCI'] },
    { en: ['Wound care'], es: ['Curas'], fr: ['Pansements'], pt: ['Tratamento de feridas'] },
    ['BLS', 'ALS'],
    {
      en: ['Electronic health records'],
      es: ['Historia clínica'],
      fr: ['Dossier patient'],
      pt: ['SClínico'],
    },
  ],
  construction_pm: [
    {
      en: ['Project management'],
      es: ['Gestión de proyectos'],
      fr: ['Gestion de projet'],
      pt: ['Gestão de projetos'],
    },
    ['AutoCAD'],
    ['Revit'],
    ['Primavera P6'],
    ['BIM'],
    {
      en: ['Health and safety'],
      es: ['Prevención de riesgos laborales'],
      fr: ['Sécurité chantier'],
      pt: ['Segurança no trabalho'],
    },
    ['Presto', 'MS Project'],
    {
      en: ['Cost control'],
      es: ['Control de costes'],
      fr: ['Maîtrise des coûts'],
      pt: ['Controlo de custos'],
    },
  ],
  hr: [
    { en: ['Recruitment'], es: ['Selección de personal'], fr: ['Recrutement'], pt: ['Recrutamento'] },
    { en: ['Onboarding'], es: ['Onboarding'], fr: ['Intégration'], pt: ['Onboarding'] },
    ['Workday'],
    {
      en: ['Employee relations'],
      es: ['Relaciones laborales'],
      fr: ['Relations sociales'],
      pt: ['Relações laborais'],
    },
    { en: ['Payroll'], es: ['Nóminas'], fr: ['Paie'], pt: ['Processamento salarial'] },
    {
      en: ['Employment law'],
      es: ['Derecho laboral'],
      fr: ['Droit du travail'],
      pt: ['Direito do trabalho'],
    },
    ['LinkedIn Recruiter'],
  ],
  logistics: [
    ['SAP', 'SAP MM'],
    {
      en: ['Inventory management'],
      es: ['Gestión de inventario'],
      fr: ['Gestion des stocks'],
      pt: ['Gestão de stocks'],
    },
    { en: ['Forklift licence'], es: ['Carretillero'], fr: ['CACES'], pt: ['Empilhador'] },
    {
      en: ['Supply chain'],
      es: ['Cadena de suministro'],
      fr: ["Chaîne d'approvisionnement"],
      pt: ['Cadeia de abastecimento'],
    },
    ['WMS'],
    ['Lean'],
  ],
  teacher: [
    {
      en: ['Lesson planning'],
      es: ['Programación didáctica'],
      fr: ['Préparation de cours'],
      pt: ['Planificação de aulas'],
    },
    {
      en: ['Classroom management'],
      es: ['Gestión del aula'],
      fr: ['Gestion de classe'],
      pt: ['Gestão da sala de aula'],
    },
    ['Moodle'],
    { en: ['Mathematics'], es: ['Matemáticas'], fr: ['Mathématiques'], pt: ['Matemática'] },
    ['Google Classroom'],
  ],
  chef: [
    {
      en: ['Menu planning'],
      es: ['Elaboración de menús'],
      fr: ['Élaboration de cartes'],
      pt: ['Elaboração de menus'],
    },
    ['HACCP'],
    {
      en: ['Food safety'],
      es: ['Seguridad alimentaria'],
      fr: ['Hygiène alimentaire'],
      pt: ['Segurança alimentar'],
    },
    {
      en: ['Kitchen management'],
      es: ['Gestión de cocina'],
      fr: ['Gestion de cuisine'],
      pt: ['Gestão de cozinha'],
    },
    { en: ['Pastry'], es: ['Repostería'], fr: ['Pâtisserie'], pt: ['Pastelaria'] },
  ],
  support: [
    ['Zendesk'],
    {
      en: ['Customer service'],
      es: ['Atención al cliente'],
      fr: ['Relation client'],
      pt: ['Atendimento ao cliente'],
    },
    ['Intercom'],
    ['Freshdesk'],
    ['CRM'],
    { en: ['Onboarding'], es: ['Onboarding'], fr: ['Onboarding'], pt: ['Onboarding'] },
  ],
};

const GENERIC: SkillVariants[] = [
  ['Microsoft Office', 'MS Office'],
  ['Excel'],
  { en: ['Teamwork'], es: ['Trabajo en equipo'], fr: ['Travail en équipe'], pt: ['Trabalho em equipa'] },
  { en: ['Communication'], es: ['Comunicación'], fr: ['Communication'], pt: ['Comunicação'] },
  ['Jira'],
  ['Git'],
];

const RELATED: [Occ, Occ][] = [
  ['backend', 'devops'],
  ['backend', 'data_engineer'],
  ['backend', 'frontend'],
  ['frontend', 'product_designer'],
  ['data_engineer', 'data_scientist'],
  ['marketing', 'sales'],
  ['sales', 'support'],
];
const related = (a: Occ, b: Occ) => RELATED.some(([x, y]) => (x === a && y === b) || (x === b && y === a));

const LEVELS = ['junior', 'mid', 'senior', 'lead'] as const;
type Level = (typeof LEVELS)[number];
const levelIndex = (l: Level) => LEVELS.indexOf(l);
const YEARS: Record<Level, [number, number]> = {
  junior: [1, 2],
  mid: [3, 5],
  senior: [6, 10],
  lead: [11, 16],
};
const LEVEL_WORD: Record<Level, Record<Lang, (t: string) => string>> = {
  junior: {
    en: (t) => `Junior ${t}`,
    es: (t) => `${t} Junior`,
    fr: (t) => `${t} Junior`,
    pt: (t) => `${t} Júnior`,
  },
  mid: { en: (t) => t, es: (t) => t, fr: (t) => t, pt: (t) => t },
  senior: {
    en: (t) => `Senior ${t}`,
    es: (t) => `${t} Senior`,
    fr: (t) => `${t} Senior`,
    pt: (t) => `${t} Sênior`,
  },
  lead: { en: (t) => `Lead ${t}`, es: (t) => `${t} Líder`, fr: (t) => `${t} Lead`, pt: (t) => `${t} Líder` },
};

const PLACES: Record<Lang, { city: string; country: string; code: string }[]> = {
  en: [
    { city: 'Melbourne', country: 'Australia', code: 'AU' },
    { city: 'Sydney', country: 'Australia', code: 'AU' },
    { city: 'Brisbane', country: 'Australia', code: 'AU' },
    { city: 'London', country: 'United Kingdom', code: 'GB' },
    { city: 'Manchester', country: 'United Kingdom', code: 'GB' },
  ],
  es: [
    { city: 'Madrid', country: 'España', code: 'ES' },
    { city: 'Barcelona', country: 'España', code: 'ES' },
    { city: 'Valencia', country: 'España', code: 'ES' },
    { city: 'Sevilla', country: 'España', code: 'ES' },
  ],
  fr: [
    { city: 'Paris', country: 'France', code: 'FR' },
    { city: 'Lyon', country: 'France', code: 'FR' },
    { city: 'Nantes', country: 'France', code: 'FR' },
    { city: 'Toulouse', country: 'France', code: 'FR' },
  ],
  pt: [
    { city: 'Lisboa', country: 'Portugal', code: 'PT' },
    { city: 'Porto', country: 'Portugal', code: 'PT' },
    { city: 'São Paulo', country: 'Brasil', code: 'BR' },
  ],
};

const FIRST: Record<Lang, string[]> = {
  en: [
    'Olivia',
    'Jack',
    'Amelia',
    'Noah',
    'Charlotte',
    'Liam',
    'Isla',
    'Oliver',
    'Mia',
    'Ethan',
    'Grace',
    'Lucas',
  ],
  es: [
    'Lucía',
    'Hugo',
    'Martina',
    'Pablo',
    'Carmen',
    'Javier',
    'Elena',
    'Diego',
    'Sara',
    'Álvaro',
    'Paula',
    'Marcos',
  ],
  fr: [
    'Camille',
    'Louis',
    'Léa',
    'Gabriel',
    'Manon',
    'Arthur',
    'Chloé',
    'Jules',
    'Inès',
    'Hugo',
    'Zoé',
    'Nathan',
  ],
  pt: [
    'Beatriz',
    'João',
    'Mariana',
    'Tiago',
    'Inês',
    'Rafael',
    'Ana',
    'Duarte',
    'Carolina',
    'Miguel',
    'Sofia',
    'Pedro',
  ],
};
const LAST: Record<Lang, string[]> = {
  en: [
    'Smith',
    'Nguyen',
    'Brown',
    'Wilson',
    'Taylor',
    'Kelly',
    'Walker',
    'Harris',
    'Clarke',
    'Patel',
    'Evans',
    'Wright',
  ],
  es: [
    'García',
    'Martínez',
    'López',
    'Sánchez',
    'Romero',
    'Navarro',
    'Torres',
    'Gil',
    'Serrano',
    'Molina',
    'Ortega',
  ],
  fr: [
    'Martin',
    'Bernard',
    'Dubois',
    'Thomas',
    'Robert',
    'Petit',
    'Durand',
    'Leroy',
    'Moreau',
    'Simon',
    'Laurent',
  ],
  pt: [
    'Silva',
    'Santos',
    'Ferreira',
    'Pereira',
    'Oliveira',
    'Costa',
    'Rodrigues',
    'Martins',
    'Sousa',
    'Fernandes',
  ],
};
const COMPANY_WORDS = [
  'Nova',
  'Atlas',
  'Blue',
  'Delta',
  'Orion',
  'Vértice',
  'Lumen',
  'Kite',
  'Solar',
  'Rio',
  'Alto',
];
const COMPANY_SUFFIX: Record<Lang, string[]> = {
  en: ['Pty Ltd', 'Ltd', 'Group', 'Labs'],
  es: ['S.L.', 'S.A.', 'Grupo'],
  fr: ['SAS', 'SA', 'Groupe'],
  pt: ['Lda.', 'S.A.', 'Grupo'],
};
const EDUCATION: Record<Lang, string[]> = {
  en: ['Bachelor of Science | University of Melbourne', 'Bachelor of Arts | University of Manchester'],
  es: [
    'Grado en Administración | Universidad de Sevilla',
    'Grado en Ingeniería | Universidad Politécnica de Madrid',
  ],
  fr: ['Master | Université de Lyon', 'Licence | Université de Nantes'],
  pt: ['Licenciatura | Universidade de Lisboa', 'Mestrado | Universidade do Porto'],
};
const LANG_LINES: Record<Lang, string> = {
  en: 'English (native) · Spanish (B1)',
  es: 'Español (nativo) · Inglés (B2)',
  fr: 'Français (natif) · Anglais (C1)',
  pt: 'Português (nativo) · Inglês (B2)',
};
const SUMMARY: Record<Lang, (title: string, years: number) => string> = {
  en: (t, y) =>
    `${t} with ${y} years of experience. I care about quality, clear communication and steady delivery.`,
  es: (t, y) =>
    `${t} con ${y} años de experiencia. Me importan la calidad, la comunicación clara y la entrega constante.`,
  fr: (t, y) =>
    `${t} avec ${y} ans d'expérience. Attaché à la qualité, à une communication claire et à la régularité.`,
  pt: (t, y) =>
    `${t} com ${y} anos de experiência. Valorizo a qualidade, a comunicação clara e a entrega constante.`,
};
const BULLET: Record<Lang, (skill: string) => string> = {
  en: (s) => `Delivered projects using ${s} with the team.`,
  es: (s) => `Proyectos entregados con ${s} junto al equipo.`,
  fr: (s) => `Projets livrés avec ${s} au sein de l'équipe.`,
  pt: (s) => `Projetos entregues com ${s} em equipa.`,
};

const variant = (skill: SkillVariants, lang: Lang): string =>
  pick(Array.isArray(skill) ? skill : skill[lang]);

export interface PoolCv {
  id: string;
  language: Lang;
  name: string;
  email: string;
  headline: string;
  location: string;
  summary: string;
  work: { title: string; company: string; start: string; end: string | null; bullets: string[] }[];
  education: string[];
  skills: string[];
  languages: string;
  layout: 'one_column' | 'sidebar';
  truth: { occupation: Occ; level: Level; country: string; years: number };
}

const NOW_YEAR = 2026;
const OCCS = Object.keys(TITLES) as Occ[];
const ROLE_OCCS: Occ[] = [
  'backend',
  'frontend',
  'devops',
  'data_scientist',
  'product_designer',
  'marketing',
  'nurse',
  'accountant',
  'data_engineer',
  'construction_pm',
  'hr',
  'sales',
];

function person(index: number, occupation: Occ, lang: Lang): PoolCv {
  const level = pick(LEVELS);
  const [lo, hi] = YEARS[level];
  const years = lo + Math.floor(rand() * (hi - lo + 1));
  const place = pick(PLACES[lang]);
  const first = pick(FIRST[lang]);
  const last = pick(LAST[lang]);
  const base = pick(TITLES[occupation][lang]);
  const headline = LEVEL_WORD[level][lang](base);
  const skillDefs = sample(SKILLS[occupation], 4 + Math.floor(rand() * 4));
  const skills = [
    ...skillDefs.map((s) => variant(s, lang)),
    ...sample(GENERIC, 1 + Math.floor(rand() * 2)).map((s) => variant(s, lang)),
  ];
  const changer = rand() < 0.2;
  const other = changer ? pick(OCCS.filter((o) => o !== occupation)) : occupation;
  // Jobs from newest to oldest, covering `years`.
  const work: PoolCv['work'] = [];
  let endYear: number | null = null;
  let remaining = years;
  let month = 1 + Math.floor(rand() * 12);
  let step = 0;
  while (remaining > 0 && work.length < 3) {
    const span = work.length === 2 ? remaining : Math.max(1, Math.min(remaining, 1 + Math.floor(rand() * 5)));
    const startYear: number = (endYear ?? NOW_YEAR) - span;
    const occ = work.length > 0 && remaining - span <= 0 && changer ? other : occupation;
    const title =
      step === 0
        ? headline
        : occ === occupation
          ? pick(TITLES[occ][lang])
          : LEVEL_WORD.mid[lang](pick(TITLES[occ][lang]));
    const company = `${pick(COMPANY_WORDS)} ${pick(['Systems', 'Digital', 'Services', 'Partners', 'Health', 'Works'])} ${pick(COMPANY_SUFFIX[lang])}`;
    const used = occ === occupation ? skillDefs : sample(SKILLS[occ], 2);
    work.push({
      title,
      company,
      start: `${String(month).padStart(2, '0')}/${startYear}`,
      end: endYear === null ? null : `${String(month === 1 ? 12 : month - 1).padStart(2, '0')}/${endYear}`,
      bullets: [BULLET[lang](variant(pick(used), lang))],
    });
    remaining -= span;
    endYear = startYear;
    month = 1 + Math.floor(rand() * 12);
    step++;
  }
  const ascii = (s: string) =>
    s
      .normalize('NFD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase();
  return {
    id: `cv${String(index).padStart(3, '0')}`,
    language: lang,
    name: `${first} ${last}`,
    email: `${ascii(first)}.${ascii(last)}${index}@example.${lang === 'en' ? 'com' : lang}`,
    headline,
    location: `${place.city}, ${place.country}`,
    summary: SUMMARY[lang](headline, years),
    work,
    education: [pick(EDUCATION[lang])],
    skills,
    languages: LANG_LINES[lang],
    layout: rand() < 0.5 ? 'one_column' : 'sidebar',
    truth: { occupation, level, country: place.code, years },
  };
}

const LANGS: Lang[] = ['en', 'es', 'fr', 'pt'];
const pool: PoolCv[] = [];
let n = 1;
for (const [o, occ] of OCCS.entries()) {
  const count = ROLE_OCCS.includes(occ) ? 16 : 5;
  for (let i = 0; i < count; i++) pool.push(person(n++, occ, LANGS[(o + i) % 4] as Lang));
}

interface Role {
  id: string;
  split: 'tuned' | 'held_out';
  truth: { occupation: Occ; level: Level };
  job: Record<string, unknown>;
}
const loc = (city: string | null, country: string | null, remotePolicy: string) => ({
  ...(city ? { city } : {}),
  ...(country ? { country } : {}),
  remotePolicy,
});
const req = (...names: string[]) => names.map((name) => ({ name, level: 'required' }));
const nice = (...names: string[]) => names.map((name) => ({ name, level: 'nice_to_have' }));
const roles: Role[] = [
  {
    id: 'r01',
    split: 'tuned',
    truth: { occupation: 'backend', level: 'senior' },
    job: {
      title: 'Senior Backend Engineer',
      category: 'engineering',
      description:
        '<p>Build and run the APIs behind our booking platform: Go services on PostgreSQL, deployed on Kubernetes.</p>',
      skills: [...req('Go', 'PostgreSQL', 'Kubernetes'), ...nice('Kafka', 'gRPC')],
      seniority: 'Senior',
      yearsExperience: '5+',
      location: loc('Melbourne', 'Australia', 'hybrid'),
    },
  },
  {
    id: 'r02',
    split: 'tuned',
    truth: { occupation: 'frontend', level: 'mid' },
    job: {
      title: 'Frontend Developer',
      category: 'engineering',
      description:
        '<p>Own the customer web app in TypeScript and React; care for accessibility and performance.</p>',
      skills: [...req('TypeScript', 'React', 'CSS'), ...nice('Next.js', 'Accessibility')],
      seniority: 'Mid-level',
      yearsExperience: '3-5',
      location: loc(null, null, 'remote'),
    },
  },
  {
    id: 'r03',
    split: 'tuned',
    truth: { occupation: 'devops', level: 'senior' },
    job: {
      title: 'Ingeniero DevOps Senior',
      category: 'engineering',
      description: '<p>Infraestructura como código con Terraform en AWS y clústeres de Kubernetes.</p>',
      skills: [...req('Terraform', 'AWS', 'Kubernetes'), ...nice('Prometheus', 'Ansible')],
      seniority: 'Senior',
      yearsExperience: '6+',
      location: loc('Madrid', 'España', 'hybrid'),
    },
  },
  {
    id: 'r04',
    split: 'tuned',
    truth: { occupation: 'data_scientist', level: 'mid' },
    job: {
      title: 'Data Scientist',
      category: 'data',
      description:
        '<p>Modèles de machine learning pour la prévision de la demande. Python, SQL, statistiques.</p>',
      skills: [...req('Python', 'Machine Learning', 'SQL'), ...nice('TensorFlow', 'Statistics')],
      seniority: 'Confirmé',
      yearsExperience: '3-5',
      location: loc('Paris', 'France', 'hybrid'),
    },
  },
  {
    id: 'r05',
    split: 'tuned',
    truth: { occupation: 'product_designer', level: 'mid' },
    job: {
      title: 'Designer de Produto',
      category: 'design',
      description:
        '<p>Desenhar experiências com pesquisa com usuários, protótipos e o nosso design system em Figma.</p>',
      skills: [...req('Figma', 'User research', 'Prototyping'), ...nice('Design systems')],
      seniority: 'Pleno',
      yearsExperience: '3+',
      location: loc('Lisboa', 'Portugal', 'hybrid'),
    },
  },
  {
    id: 'r06',
    split: 'tuned',
    truth: { occupation: 'marketing', level: 'senior' },
    job: {
      title: 'Digital Marketing Manager',
      category: 'marketing',
      description: '<p>Lead SEO, content and paid acquisition; report on Google Analytics.</p>',
      skills: [...req('SEO', 'Google Analytics', 'Content marketing'), ...nice('HubSpot', 'Google Ads')],
      seniority: 'Senior',
      yearsExperience: '6+',
      location: loc(null, null, 'remote'),
    },
  },
  {
    id: 'r07',
    split: 'tuned',
    truth: { occupation: 'nurse', level: 'mid' },
    job: {
      title: 'Registered Nurse – Intensive Care',
      category: 'healthcare',
      description: '<p>Provide patient care in a 20-bed ICU; medication administration and triage.</p>',
      skills: [...req('Patient care', 'ICU', 'Medication administration'), ...nice('BLS')],
      seniority: null,
      yearsExperience: '2+',
      location: loc('Sydney', 'Australia', 'onsite'),
    },
  },
  {
    id: 'r08',
    split: 'tuned',
    truth: { occupation: 'accountant', level: 'mid' },
    job: {
      title: 'Contable',
      category: 'finance',
      description:
        '<p>Cierre contable mensual, reporting financiero bajo NIIF y conciliaciones en Excel.</p>',
      skills: [...req('IFRS', 'Excel', 'Financial reporting'), ...nice('SAP')],
      seniority: null,
      yearsExperience: '3-5',
      location: loc('Barcelona', 'España', 'onsite'),
    },
  },
  {
    id: 'r09',
    split: 'held_out',
    truth: { occupation: 'data_engineer', level: 'senior' },
    job: {
      title: 'Senior Data Engineer',
      category: 'data',
      description: '<p>Batch and streaming pipelines with Airflow and Spark feeding our warehouse.</p>',
      skills: [...req('Python', 'SQL', 'Airflow', 'Spark'), ...nice('dbt', 'Kafka')],
      seniority: 'Senior',
      yearsExperience: '6+',
      location: loc(null, null, 'remote'),
    },
  },
  {
    id: 'r10',
    split: 'held_out',
    truth: { occupation: 'construction_pm', level: 'senior' },
    job: {
      title: 'Jefe de Obra',
      category: 'construction_trades',
      description: '<p>Dirección de obras de edificación: planificación, control de costes y seguridad.</p>',
      skills: [
        ...req('Gestión de proyectos', 'AutoCAD', 'Prevención de riesgos laborales'),
        ...nice('Primavera P6', 'BIM'),
      ],
      seniority: 'Senior',
      yearsExperience: '8+',
      location: loc('Valencia', 'España', 'onsite'),
    },
  },
  {
    id: 'r11',
    split: 'held_out',
    truth: { occupation: 'hr', level: 'mid' },
    job: {
      title: 'Chargé(e) de recrutement',
      category: 'hr_people',
      description:
        '<p>Recrutement de profils techniques, intégration des nouveaux arrivants, relations avec les écoles.</p>',
      skills: [...req('Recrutement', 'Intégration'), ...nice('Droit du travail', 'Workday')],
      seniority: null,
      yearsExperience: '3+',
      location: loc('Lyon', 'France', 'hybrid'),
    },
  },
  {
    id: 'r12',
    split: 'held_out',
    truth: { occupation: 'sales', level: 'mid' },
    job: {
      title: 'Executivo de Vendas B2B',
      category: 'sales',
      description: '<p>Prospecção e gestão de contas empresariais, negociação e pipeline no Salesforce.</p>',
      skills: [...req('Vendas B2B', 'Salesforce', 'Negociação'), ...nice('CRM')],
      seniority: 'Pleno',
      yearsExperience: '3+',
      location: loc('Porto', 'Portugal', 'hybrid'),
    },
  },
];

const ROLE_COUNTRY: Record<string, string | null> = {
  r01: 'AU',
  r02: null,
  r03: 'ES',
  r04: 'FR',
  r05: 'PT',
  r06: null,
  r07: 'AU',
  r08: 'ES',
  r09: null,
  r10: 'ES',
  r11: 'FR',
  r12: 'PT',
};

function grade(role: Role, cv: PoolCv): number {
  const country = ROLE_COUNTRY[role.id];
  const placeFits = country === null || country === cv.truth.country;
  if (cv.truth.occupation === role.truth.occupation) {
    const near = Math.abs(levelIndex(cv.truth.level) - levelIndex(role.truth.level)) <= 1;
    return near && placeFits ? 3 : 2;
  }
  if (related(cv.truth.occupation, role.truth.occupation) && placeFits) return 1;
  return 0;
}

const judgements: Record<string, Record<string, number>> = {};
for (const role of roles) {
  const graded: Record<string, number> = {};
  for (const cv of pool) {
    const g = grade(role, cv);
    if (g > 0) graded[cv.id] = g;
  }
  judgements[role.id] = graded;
}

const dir = new URL('../test/fixtures/matches/', import.meta.url);
const json = (value: unknown) => `${JSON.stringify(value, null, 1)}\n`;
writeFileSync(new URL('roles.json', dir), json(roles));
writeFileSync(new URL('pool.json', dir), json(pool));
writeFileSync(new URL('judgements.json', dir), json(judgements));
console.log(
  `${roles.length} roles, ${pool.length} CVs, ${Object.values(judgements).reduce((s, j) => s + Object.keys(j).length, 0)} graded pairs`,
);
