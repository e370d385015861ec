// Skill names folded to one key per skill: case, accents, punctuation, spelling variants
// (Postgres/PostgreSQL, JS/JavaScript, React.js/React, K8s/Kubernetes) and the same skill written
// in English, Spanish, French or Portuguese. The key is what matching compares; the role's own
// words are what reasons show.

/** Lower case, no diacritics, punctuation as spaces except the marks that make a skill (c++, c#, .net). */
export function fold(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9+#./ ]+/g, ' ')
    .replace(/(^|\s)[./]+|[./]+(?=\s|$)/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

// Each line: the canonical key, then every variant (already folded).
const GROUPS: string[][] = [
  ['javascript', 'js', 'ecmascript', 'es6', 'vanilla js'],
  ['typescript', 'ts'],
  ['react', 'react.js', 'reactjs', 'react js'],
  ['vue', 'vue.js', 'vuejs', 'vue js'],
  ['angular', 'angularjs', 'angular.js'],
  ['nextjs', 'next.js', 'next js', 'next'],
  ['nodejs', 'node.js', 'node js', 'node'],
  ['postgresql', 'postgres', 'psql', 'postgre sql', 'postgre'],
  ['mysql', 'my sql'],
  ['mongodb', 'mongo'],
  ['kubernetes', 'k8s', 'kube'],
  ['go', 'golang', 'go lang'],
  ['python', 'python3', 'py'],
  ['aws', 'amazon web services'],
  ['gcp', 'google cloud', 'google cloud platform'],
  ['azure', 'microsoft azure'],
  ['kafka', 'apache kafka'],
  ['spark', 'apache spark', 'pyspark'],
  ['airflow', 'apache airflow'],
  ['ci/cd', 'ci cd', 'cicd', 'continuous integration', 'integracion continua', 'integration continue'],
  ['rest', 'rest apis', 'rest api', 'restful', 'api rest', 'apis rest'],
  ['html', 'html5'],
  ['css', 'css3'],
  ['scikit-learn', 'sklearn', 'scikit learn'],
  ['tensorflow', 'tf'],
  ['pytorch', 'torch'],
  [
    'machine learning',
    'ml',
    'aprendizaje automatico',
    'apprentissage automatique',
    'aprendizado de maquina',
    'aprendizagem automatica',
  ],
  ['statistics', 'estadistica', 'statistiques', 'statistique', 'estatistica'],
  [
    'nlp',
    'natural language processing',
    'procesamiento del lenguaje natural',
    'traitement du langage naturel',
  ],
  ['accessibility', 'a11y', 'wcag', 'accesibilidad', 'accesibilidad web', 'accessibilite', 'acessibilidade'],
  [
    'user research',
    'ux research',
    'investigacion de usuarios',
    'recherche utilisateur',
    'pesquisa com usuarios',
  ],
  ['prototyping', 'prototipado', 'prototypage', 'prototipagem', 'prototypes'],
  ['design systems', 'design system', 'sistemas de diseno', 'sistema de diseno', 'systeme de design'],
  ['usability testing', 'pruebas de usabilidad', 'tests d utilisabilite', 'testes de usabilidade'],
  ['wireframing', 'wireframes', 'wireframe'],
  ['google analytics', 'ga4', 'ga'],
  ['google ads', 'sem', 'adwords', 'google adwords'],
  ['content marketing', 'marketing de contenidos', 'marketing de contenu', 'marketing de conteudo'],
  ['email marketing', 'emailing', 'e mail marketing'],
  ['copywriting', 'redaccion publicitaria', 'redaction web', 'redaction'],
  ['social media', 'redes sociales', 'reseaux sociaux', 'redes sociais'],
  ['b2b sales', 'venta b2b', 'ventas b2b', 'vente b2b', 'vendas b2b', 'b2b'],
  ['negotiation', 'negociacion', 'negociation', 'negociacao'],
  ['lead generation', 'prospeccion', 'generacion de leads', 'prospection', 'prospeccao'],
  ['account management', 'gestion de cuentas', 'gestion de comptes', 'gestao de contas'],
  ['ifrs', 'niif', 'normas internacionales de informacion financiera'],
  ['sap', 'sap fi', 'sap mm', 'sap erp'],
  ['excel', 'microsoft excel', 'ms excel'],
  ['microsoft office', 'ms office', 'office 365', 'microsoft 365'],
  [
    'financial reporting',
    'reporting financiero',
    'estados financieros',
    'reporting financier',
    'relato financeiro',
    'informes financieros',
  ],
  ['audit', 'auditoria', 'auditing'],
  ['tax', 'fiscalidad', 'fiscalite', 'fiscalidade', 'taxation'],
  ['budgeting', 'presupuestos', 'budget', 'orcamentacao', 'orcamento'],
  ['accounts payable', 'cuentas a pagar', 'comptabilite fournisseurs', 'contas a pagar'],
  [
    'patient care',
    'atencion al paciente',
    'cuidados de enfermeria',
    'soins aux patients',
    'cuidados ao doente',
    'cuidados ao paciente',
  ],
  ['triage', 'triaje', 'triagem'],
  [
    'medication administration',
    'administracion de medicamentos',
    'administration des medicaments',
    'administracao de medicacao',
  ],
  ['icu', 'intensive care', 'uci', 'cuidados intensivos', 'reanimation', 'soins intensifs', 'uti'],
  ['wound care', 'curas', 'pansements', 'tratamento de feridas'],
  ['bls', 'basic life support', 'soporte vital basico', 'suporte basico de vida'],
  [
    'project management',
    'gestion de proyectos',
    'gestion de projet',
    'gestao de projetos',
    'gestion de projets',
  ],
  [
    'health and safety',
    'prevencion de riesgos laborales',
    'securite chantier',
    'seguranca no trabalho',
    'hse',
    'prl',
  ],
  ['ms project', 'microsoft project'],
  ['cost control', 'control de costes', 'maitrise des couts', 'controlo de custos', 'controle de custos'],
  ['recruitment', 'recruiting', 'seleccion de personal', 'recrutement', 'recrutamento', 'talent acquisition'],
  ['onboarding', 'integration', 'integracion', 'integracao'],
  ['employee relations', 'relaciones laborales', 'relations sociales', 'relacoes laborais'],
  ['payroll', 'nominas', 'paie', 'processamento salarial', 'folha de pagamento'],
  ['employment law', 'derecho laboral', 'droit du travail', 'direito do trabalho', 'labour law', 'labor law'],
  [
    'inventory management',
    'gestion de inventario',
    'gestion des stocks',
    'gestao de stocks',
    'gestao de estoque',
  ],
  ['supply chain', 'cadena de suministro', 'chaine d approvisionnement', 'cadeia de abastecimento'],
  ['forklift licence', 'forklift', 'carretillero', 'caces', 'empilhador'],
  ['lesson planning', 'programacion didactica', 'preparation de cours', 'planificacao de aulas'],
  ['classroom management', 'gestion del aula', 'gestion de classe', 'gestao da sala de aula'],
  ['mathematics', 'matematicas', 'mathematiques', 'matematica', 'maths', 'math'],
  ['menu planning', 'elaboracion de menus', 'elaboration de cartes', 'elaboracao de menus'],
  ['food safety', 'seguridad alimentaria', 'hygiene alimentaire', 'seguranca alimentar'],
  ['kitchen management', 'gestion de cocina', 'gestion de cuisine', 'gestao de cozinha'],
  ['pastry', 'reposteria', 'patisserie', 'pastelaria'],
  ['customer service', 'atencion al cliente', 'relation client', 'atendimento ao cliente', 'service client'],
  ['teamwork', 'trabajo en equipo', 'travail en equipe', 'trabalho em equipa', 'trabalho em equipe'],
  ['communication', 'comunicacion', 'comunicacao'],
];

const CANONICAL = new Map<string, string>();
for (const [key, ...variants] of GROUPS) {
  CANONICAL.set(key as string, key as string);
  for (const variant of variants) CANONICAL.set(variant, key as string);
}

/** The key of one skill name; '' for a name with no letters or digits. */
export function skillKey(name: string): string {
  const folded = fold(name).slice(0, 100);
  const known = CANONICAL.get(folded);
  if (known) return known;
  // "Foo.js" / "FooJS" name the framework Foo when Foo is known.
  const bare = folded.replace(/\.?\s?js$/, '');
  if (bare !== folded && CANONICAL.has(bare)) return CANONICAL.get(bare) as string;
  return folded;
}

// Variants too common as plain words to count as a skill when met in running text.
const AMBIGUOUS_IN_TEXT = new Set([
  'integration',
  'integracion',
  'integracao',
  'next',
  'node',
  'budget',
  'tax',
  'b2b',
  'sem',
  'math',
  'maths',
  'communication',
  'comunicacion',
  'comunicacao',
  'audit',
  'redaction',
  'forklift',
]);
const TEXT_VARIANTS = [...CANONICAL].filter(
  ([variant]) => variant.length >= 3 && !AMBIGUOUS_IN_TEXT.has(variant),
);

/** Known skills named anywhere in a CV's text ("built the API in Golang on Postgres"). */
export function knownSkillsInText(text: string): Set<string> {
  const found = new Set<string>();
  const padded = ` ${fold(text.slice(0, 200_000))} `;
  for (const [variant, key] of TEXT_VARIANTS) {
    if (!found.has(key) && padded.includes(` ${variant} `)) found.add(key);
  }
  return found;
}
