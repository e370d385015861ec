// Word lists for en/es/fr/pt CVs. All entries are folded (lower case, no diacritics; see text.ts).
// Lists are deliberately small and common-case: they add evidence to a score, they never decide
// alone, so a missing word lowers confidence instead of losing a field. Lists are written as
// "|"-separated text so they stay compact and easy to extend.

import type { CvLanguage, SectionKind } from './types.ts';

function list(text: string): string[] {
  return text
    .split(/[|\n]/)
    .map((w) => w.trim())
    .filter((w) => w.length > 0);
}

/** { code: 'name|name' } → { name: code }. */
function byCode(groups: Record<string, string>): Record<string, string> {
  const table: Record<string, string> = {};
  for (const [code, names] of Object.entries(groups)) for (const name of list(names)) table[name] = code;
  return table;
}

/** Section headings by kind; the language tag feeds the document-language guess. */
export const HEADINGS: Record<
  Exclude<SectionKind, 'header' | 'other'>,
  Partial<Record<CvLanguage, string[]>>
> = {
  summary: {
    en: list(`
      summary|profile|professional summary|about me|about|objective|career objective|personal statement
      overview
    `),
    es: list('perfil|resumen|resumen profesional|sobre mi|acerca de mi|objetivo|perfil profesional|extracto'),
    fr: list('profil|a propos|a propos de moi|resume professionnel|objectif|synthese|presentation'),
    pt: list('resumo|perfil|sobre mim|resumo profissional|objetivo|apresentacao|perfil profissional'),
  },
  work: {
    en: list(`
      experience|experiences|work experience|professional experience|employment|employment history
      work history|career history|career|relevant experience|professional background
    `),
    es: list(`
      experiencia|experiencias|experiencia laboral|experiencia profesional|historial laboral
      historial profesional|trayectoria profesional|trayectoria
    `),
    fr: list(`
      experience|experiences|experience professionnelle|experiences professionnelles
      parcours professionnel|parcours|emplois
    `),
    pt: list(`
      experiencia|experiencias|experiencia profissional|experiencias profissionais
      historico profissional|percurso profissional|trajetoria profissional
    `),
  },
  education: {
    en: list(`
      education|academic background|qualifications|education and training|academic qualifications
      studies
    `),
    es: list('educacion|formacion|formacion academica|estudios|formacion reglada|titulacion|titulaciones'),
    fr: list(`
      formation|formations|education|etudes|diplomes|cursus|formation academique|parcours academique
    `),
    pt: list(`
      educacao|formacao|formacao academica|escolaridade|estudos|habilitacoes|habilitacoes academicas
    `),
  },
  skills: {
    en: list(`
      skills|technical skills|key skills|core skills|competencies|core competencies|expertise
      technologies|tools|skills and tools
    `),
    es: list(`
      habilidades|competencias|aptitudes|conocimientos|habilidades tecnicas|competencias tecnicas
      herramientas|tecnologias
    `),
    fr: list('competences|competences techniques|savoir faire|outils|technologies|aptitudes'),
    pt: list('competencias|habilidades|conhecimentos|competencias tecnicas|ferramentas|tecnologias|aptidoes'),
  },
  languages: {
    en: list('languages|language skills|language'),
    es: list('idiomas|lenguas|idioma'),
    fr: list('langues|langues etrangeres|competences linguistiques|langue'),
    pt: list('idiomas|linguas|lingua|idioma'),
  },
  contact: {
    en: list('contact|contact details|contact information|personal details|details|personal information'),
    es: list('contacto|datos de contacto|datos personales|informacion personal'),
    fr: list('contact|coordonnees|informations personnelles|infos'),
    pt: list('contato|contacto|contactos|dados pessoais|informacoes pessoais'),
  },
  projects: {
    en: list('projects|personal projects|selected projects|portfolio'),
    es: list('proyectos|proyectos personales'),
    fr: list('projets|projets personnels|realisations'),
    pt: list('projetos|projectos|projetos pessoais'),
  },
  certificates: {
    en: list(`
      certifications|certificates|licenses|licences|courses|training|awards|honors|honours|achievements
    `),
    es: list('certificaciones|certificados|cursos|premios|logros'),
    fr: list('certifications|certificats|prix|distinctions'),
    pt: list('certificacoes|certificados|cursos|premios|conquistas'),
  },
  interests: {
    en: list(`
      interests|hobbies|activities|volunteering|volunteer experience|references|publications
      additional information
    `),
    es: list('intereses|aficiones|voluntariado|referencias|publicaciones|otros datos|informacion adicional'),
    fr: list("centres d'interet|centres d interet|loisirs|interets|benevolat|references|publications|divers"),
    pt: list('interesses|hobbies|voluntariado|referencias|publicacoes|atividades|informacoes adicionais'),
  },
};

/** Words that make a text look like a job title (head nouns in all four languages). */
export const JOB_TITLE_WORDS = list(`
  engineer|developer|programmer|manager|analyst|designer|consultant|intern|lead|director|architect
  specialist|coordinator|assistant|scientist|administrator|officer|technician|teacher|nurse|accountant
  head|vp|president|founder|co-founder|cofounder|owner|associate|advisor|adviser|executive
  representative|supervisor|trainee|apprentice|researcher|editor|writer|auditor|controller|clerk|agent
  tester|devops|sre|cto|ceo|cfo|coo|chief|partner|lecturer|professor|tutor|instructor|recruiter|planner
  buyer|operator|mechanic|electrician|pharmacist|physician|doctor|therapist|paralegal|lawyer|attorney
  solicitor|chef|cook|waiter|cashier|receptionist|secretary|salesperson|marketer|strategist
  product owner|scrum master|full stack|fullstack|backend|frontend|front-end|back-end|ingeniero
  ingeniera|desarrollador|desarrolladora|programador|programadora|jefe|jefa|gerente|responsable|analista
  disenador|disenadora|consultor|consultora|becario|becaria|practicas|tecnico|tecnica|coordinador
  coordinadora|asistente|auxiliar|administrativo|administrativa|profesor|profesora|enfermero|enfermera
  contable|contador|contadora|directora|arquitecto|arquitecta|auditora|comercial|dependiente|encargado
  encargada|socio|socia|investigador|investigadora|abogado|abogada|medico|medica|cientifico|cientifica
  especialista|ingenieur|ingenieure|developpeur|developpeuse|cheffe|charge|chargee|stagiaire|alternant
  alternante|consultante|analyste|directeur|directrice|architecte|technicien|technicienne|gestionnaire
  assistante|infirmier|infirmiere|comptable|enseignant|enseignante|professeur|conseiller|conseillere
  commercial|commerciale|vendeur|vendeuse|redacteur|redactrice|chercheur|chercheuse|juriste|avocat
  avocate|animateur|animatrice|concepteur|conceptrice|integrateur|engenheiro|engenheira|desenvolvedor
  desenvolvedora|estagiario|estagiaria|coordenador|coordenadora|diretor|diretora|assistente|professora
  enfermeiro|enfermeira|arquiteto|arquiteta|supervisora|vendedor|vendedora|pesquisador|pesquisadora
  advogado|advogada|lider|cientista
`);

/** Seniority words: they sit in titles, never in employer names. */
export const SENIORITY_WORDS = list(`
  senior|junior|sr|jr|principal|staff|trainee|pleno|graduate
`);

/** Legal-form suffixes and organisation words that mark an employer. */
export const COMPANY_WORDS = list(`
  ltd|ltda|limited|pty|inc|llc|llp|plc|corp|corporation|gmbh|ag|sa|s a|sl|s l|slu|sas|sasu|sarl|eurl|srl
  spa|bv|nv|oy|ab|as|lda|me|eireli|co|company|group|grupo|groupe|holding|holdings|labs|lab|technologies
  technology|systems|solutions|services|consulting|studio|studios|agency|agencia|agence|bank|banco
  banque|hospital|hopital|clinic|clinica|clinique|capital|partners|industries|foundation|fundacion
  fundacao|fondation|association|asociacion|associacao|ministry|ministerio|ministere|mairie|ayuntamiento
  prefeitura|council|government|gobierno|governo|university|universidad|universite|universidade|school
  escuela|ecole|escola|institute|instituto|institut|asociados|associates|associes|associados|media
  software|sistemas|soluciones|solucoes
`);

/** Words that open a qualification ("Bachelor of …", "Grado en …", "Licence …", "Mestrado em …"). */
export const DEGREE_WORDS = list(`
  bachelor|bachelors|bachelor's|ba|bs|bsc|b sc|beng|bfa|bba|llb|master|masters|master's|ma|ms|msc|m sc
  meng|mba|mphil|phd|ph d|doctorate|doctor of|diploma|graduate diploma|certificate|associate degree
  associate of|high school|a levels|gcse|hnd|grado|licenciatura|licenciado|licenciada|maestria|doctorado
  diplomatura|ingenieria|tecnico superior|ciclo formativo|bachillerato|posgrado|postgrado
  contador publico|contadora publica|titulo|diplomado|licence|licence professionnelle|doctorat|diplome
  diplome d'ingenieur|bts|dut|but|baccalaureat|bac|mastere|cap|deug|dea|dess|classe preparatoire|prepa
  bacharelado|bacharel|mestrado|doutorado|doutoramento|pos graduacao|pos-graduacao|especializacao
  tecnologo|tecnico|curso tecnico|ensino medio
`);

/** Words that mark a school. */
export const INSTITUTION_WORDS = list(`
  university|universidad|universite|universidade|universitat|universita|college|school|escuela|ecole
  escola|institute|instituto|institut|academy|academia|academie|faculty|facultad|faculte|faculdade
  polytechnic|politecnica|politecnico|polytechnique|lycee|liceo|colegio|conservatory|conservatorio
  conservatoire|business school|iae|insa|iut|ies|fundacao|fgv|usp|unicamp|uba|upm|ucm|mit|tafe|campus
  seminary
`);

/** Words that say a range is still open. */
export const PRESENT_WORDS = list(`
  present|presente|current|currently|now|today|ongoing|to date|till date|date|actual|actualidad
  actualmente|la fecha|hoy|la actualidad|aujourd'hui|aujourd hui|aujourdhui|actuel|actuellement|en cours
  ce jour|a ce jour|maintenant|atual|atualmente|o momento|momento|hoje|actualidade|corrente
`);

/** Month names and abbreviations (folded) → month number. */
export const MONTHS: Record<string, number> = (() => {
  const table: Record<string, number> = {};
  const add = (month: number, ...names: string[]) => {
    for (const name of names) table[name] = month;
  };
  add(1, 'january', 'jan', 'enero', 'ene', 'janvier', 'janv', 'janeiro');
  add(2, 'february', 'feb', 'febrero', 'fevrier', 'fevr', 'fev', 'fevereiro');
  add(3, 'march', 'mar', 'marzo', 'mars', 'marco');
  add(4, 'april', 'apr', 'abril', 'abr', 'avril', 'avr');
  add(5, 'may', 'mayo', 'mai', 'maio');
  add(6, 'june', 'jun', 'junio', 'juin', 'junho');
  add(7, 'july', 'jul', 'julio', 'juillet', 'juil', 'julho');
  add(8, 'august', 'aug', 'agosto', 'ago', 'aout');
  add(9, 'september', 'sep', 'sept', 'septiembre', 'setiembre', 'set', 'septembre', 'setembro');
  add(10, 'october', 'oct', 'octubre', 'octobre', 'outubro', 'out');
  add(11, 'november', 'nov', 'noviembre', 'novembre', 'novembro');
  add(12, 'december', 'dec', 'diciembre', 'dic', 'decembre', 'dezembro', 'dez');
  return table;
})();

/** Country names in the four languages (folded) → ISO 3166-1 alpha-2. */
export const COUNTRIES: Record<string, string> = byCode({
  GB: `
    united kingdom|uk|great britain|england|scotland|wales|reino unido|royaume uni|royaume-uni
    inglaterra|angleterre
  `,
  ES: 'spain|espana|espagne|espanha',
  FR: 'france|francia|franca',
  PT: 'portugal',
  BR: 'brazil|brasil|bresil',
  AU: 'australia|australie',
  US: 'united states|usa|u s a|us|estados unidos|ee uu|etats unis|etats-unis|eua',
  CA: 'canada',
  MX: 'mexico|mexique',
  AR: 'argentina|argentine',
  CL: 'chile|chili',
  CO: 'colombia|colombie',
  PE: 'peru|perou',
  UY: 'uruguay|uruguai',
  PY: 'paraguay|paraguai',
  VE: 'venezuela',
  EC: 'ecuador|equateur|equador',
  BO: 'bolivia|bolivie',
  BE: 'belgium|belgique|belgica',
  CH: 'switzerland|suisse|suiza|suica',
  DE: 'germany|alemania|allemagne|alemanha|deutschland',
  IT: 'italy|italia|italie',
  IE: 'ireland|irlanda|irlande',
  NL: 'netherlands|paises bajos|pays bas|holanda',
  LU: 'luxembourg|luxemburgo',
  MA: 'morocco|maroc|marruecos|marrocos',
  AO: 'angola',
  MZ: 'mozambique|mocambique',
  CV: 'cabo verde',
  NZ: 'new zealand|nueva zelanda|nouvelle zelande',
  IN: 'india|inde',
  SN: 'senegal',
  TN: 'tunisie|tunisia',
  DZ: 'algerie|algeria',
});

/** Region codes that name their country without ambiguity. */
export const REGION_CODES: Record<string, string> = (() => {
  const table: Record<string, string> = {};
  const add = (country: string, codes: string) => {
    for (const code of codes.split(' ')) table[code] = country;
  };
  add('AU', 'NSW VIC QLD WA SA TAS ACT NT');
  add(
    'US',
    'AL AK AZ AR CO CT DE FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND',
  );
  add('US', 'OH OK OR PA RI SC SD TN TX UT VT VA WV WI WY DC');
  add('BR', 'AC AP AM BA CE ES GO MA MT MS MG PR PB PE PI RJ RN RS RO RR SP SE TO DF');
  add('CA', 'ON QC BC AB MB NS NB NL PE SK YT NU');
  return table;
})();

// US and Brazilian state codes overlap (MA, MT, MS, PA…); the country decides, or the city list.
export const AMBIGUOUS_REGIONS = new Set(list('MA|MT|MS|PA|PE|SC|ES|AL|CE|NT|WA|SA|CA|DE|IN|ME|OR|CO|GO'));

/** A few large cities per market, so a bare "Lyon" or "Sydney" is still known as a place. */
export const CITIES: Record<string, string> = byCode({
  GB: `
    london|manchester|birmingham|leeds|glasgow|edinburgh|bristol|liverpool|cardiff|belfast|cambridge
    oxford
  `,
  ES: `
    madrid|barcelona|valencia|sevilla|seville|zaragoza|malaga|bilbao|murcia|alicante|granada|palma
    las palmas|valladolid|vigo|a coruna|san sebastian|pamplona|salamanca|oviedo
  `,
  FR: 'paris|lyon|marseille|toulouse|nice|nantes|strasbourg|montpellier|bordeaux|lille|rennes|grenoble',
  PT: 'lisboa|lisbon|lisbonne|porto|braga|coimbra|faro|aveiro',
  BR: `
    sao paulo|rio de janeiro|belo horizonte|brasilia|salvador|fortaleza|curitiba|recife|porto alegre
    campinas|florianopolis
  `,
  AU: 'sydney|melbourne|brisbane|perth|adelaide|canberra|hobart|gold coast|darwin',
  US: `
    new york|los angeles|chicago|houston|seattle|portland|boston|san francisco|austin|denver|miami
    atlanta
  `,
  AR: 'buenos aires|cordoba|rosario|mendoza',
  MX: 'ciudad de mexico|mexico city|guadalajara|monterrey',
  CL: 'santiago',
  CO: 'bogota|medellin',
  PE: 'lima',
  UY: 'montevideo',
  EC: 'quito',
  BE: 'bruxelles|brussels',
  CH: 'geneve|geneva',
  CA: 'montreal|toronto|vancouver',
  IE: 'dublin',
  AO: 'luanda',
  MZ: 'maputo',
  MA: 'casablanca',
  SN: 'dakar',
});

/** Natural languages by name in the four languages (folded) → ISO 639-1. */
export const LANGUAGE_NAMES: Record<string, string> = byCode({
  en: 'english|ingles|anglais',
  es: 'spanish|espanol|castellano|castilian|espagnol|espanhol',
  fr: 'french|frances|francais',
  pt: 'portuguese|portugues|portugais',
  de: 'german|aleman|allemand|alemao|deutsch',
  it: 'italian|italiano|italien',
  ca: 'catalan|catala|catalao|valenciano|valencian|valencien',
  gl: 'galician|gallego|galego|galicien',
  eu: 'basque|euskera|vasco|basco',
  nl: 'dutch|neerlandes|neerlandais|holandes|flemish',
  zh: 'chinese|mandarin|chino|chinois|chines|mandarim|cantonese',
  ja: 'japanese|japones|japonais',
  ko: 'korean|coreano|coreen',
  ar: 'arabic|arabe',
  ru: 'russian|ruso|russe|russo',
  hi: 'hindi',
  ta: 'tamil',
  bn: 'bengali',
  ur: 'urdu',
  pa: 'punjabi',
  te: 'telugu',
  vi: 'vietnamese|vietnamien|vietnamita',
  pl: 'polish|polaco|polonais',
  ro: 'romanian|rumano|roumain|romeno',
  el: 'greek|griego|grec|grego',
  tr: 'turkish|turco|turc',
  sv: 'swedish|sueco|suedois',
  he: 'hebrew|hebreo|hebreu|hebraico',
  uk: 'ukrainian|ucraniano|ukrainien',
  tl: 'tagalog|filipino',
  id: 'indonesian',
  ms: 'malay',
  th: 'thai',
  fa: 'persian|farsi',
  sw: 'swahili',
  wo: 'wolof',
  ber: 'berber',
  gn: 'guarani',
  qu: 'quechua',
  ht: 'creole',
  sgn: 'sign language|auslan|lse|lsf|libras',
});
