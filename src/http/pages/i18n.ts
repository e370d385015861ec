import type { ConsentLocale } from '../../domain/consent/consent-texts.ts';

export const PAGE_LANGS = ['en', 'es', 'fr', 'pt'] as const;
export type PageLang = ConsentLocale;

export function pageLang(value: unknown): PageLang | null {
  return typeof value === 'string' && (PAGE_LANGS as readonly string[]).includes(value)
    ? (value as PageLang)
    : null;
}

/** The first supported language the browser asks for, else English. */
export function preferredLang(acceptLanguage: string | undefined): PageLang {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const lang = pageLang(part.trim().slice(0, 2).toLowerCase());
    if (lang) return lang;
  }
  return 'en';
}

export interface PageWords {
  jobs: string;
  apply: string;
  posted: string;
  closes: string;
  salary: string;
  location: string;
  remote: Record<'onsite' | 'hybrid' | 'remote', string>;
  employment: Record<'full_time' | 'part_time', string>;
  contract: Record<'permanent' | 'part_time' | 'fixed_term' | 'contract' | 'casual', string>;
  per: (period: string) => string;
  periods: Record<'hour' | 'day' | 'week' | 'month' | 'year', string>;
  responsibilities: string;
  skills: string;
  required: string;
  niceToHave: string;
  benefits: string;
  closedTitle: string;
  closedBody: string;
  notFound: string;
  notFoundBody: string;
  next: string;
  noJobs: string;
  applyFor: (role: string, company: string) => string;
  name: string;
  email: string;
  phone: string;
  cityRegion: string;
  cv: string;
  cvHint: (mb: number) => string;
  coverNote: string;
  optional: string;
  consentHeading: string;
  submit: string;
  honeypot: string;
  thanksTitle: string;
  thanksBody: (email: string) => string;
  duplicateTitle: string;
  duplicateBody: string;
  fixErrors: string;
  required_: string;
  invalidEmail: string;
  tooLong: string;
  tooMany: string;
  expiredForm: string;
  languages: string;
}

const en: PageWords = {
  jobs: 'Jobs',
  apply: 'Apply now',
  posted: 'Posted',
  closes: 'Applications close',
  salary: 'Salary',
  location: 'Location',
  remote: { onsite: 'On site', hybrid: 'Hybrid', remote: 'Remote' },
  employment: { full_time: 'Full time', part_time: 'Part time' },
  contract: {
    permanent: 'Permanent',
    part_time: 'Part time',
    fixed_term: 'Fixed term',
    contract: 'Contract',
    casual: 'Casual',
  },
  per: (p) => `per ${p}`,
  periods: { hour: 'hour', day: 'day', week: 'week', month: 'month', year: 'year' },
  responsibilities: 'What you will do',
  skills: 'Skills',
  required: 'Required',
  niceToHave: 'Nice to have',
  benefits: 'Benefits',
  closedTitle: 'This role has closed',
  closedBody: 'It no longer takes applications. Thank you for your interest.',
  notFound: 'Page not found',
  notFoundBody: 'This job does not exist, or is not published.',
  next: 'More jobs',
  noJobs: 'No open roles right now.',
  applyFor: (r, c) => `Apply for ${r} at ${c}`,
  name: 'Full name',
  email: 'Email',
  phone: 'Phone',
  cityRegion: 'Where you live (city, region)',
  cv: 'Your CV (PDF)',
  cvHint: (mb) => `A PDF with selectable text, up to ${mb} MB.`,
  coverNote: 'Cover note',
  optional: 'optional',
  consentHeading: 'How your application is used',
  submit: 'I agree — send my application',
  honeypot: 'Leave this field empty',
  thanksTitle: 'Application sent',
  thanksBody: (e) =>
    `Thank you. We will email ${e} a link to see, claim or delete the CV the employer receives.`,
  duplicateTitle: 'You already applied',
  duplicateBody: 'We already have your application for this role, so nothing new was sent.',
  fixErrors: 'Please correct the fields marked below.',
  required_: 'This field is required.',
  invalidEmail: 'Enter an email address like name@example.com.',
  tooLong: 'This is too long.',
  tooMany: 'Too many attempts from your connection. Please wait a minute and try again.',
  expiredForm: 'This form expired. Please send it again.',
  languages: 'Language',
};

const es: PageWords = {
  jobs: 'Empleos',
  apply: 'Postularme',
  posted: 'Publicado',
  closes: 'Cierre de candidaturas',
  salary: 'Salario',
  location: 'Ubicación',
  remote: { onsite: 'Presencial', hybrid: 'Híbrido', remote: 'Remoto' },
  employment: { full_time: 'Jornada completa', part_time: 'Media jornada' },
  contract: {
    permanent: 'Indefinido',
    part_time: 'Tiempo parcial',
    fixed_term: 'Temporal',
    contract: 'Por contrato',
    casual: 'Eventual',
  },
  per: (p) => `por ${p}`,
  periods: { hour: 'hora', day: 'día', week: 'semana', month: 'mes', year: 'año' },
  responsibilities: 'Qué harás',
  skills: 'Habilidades',
  required: 'Imprescindible',
  niceToHave: 'Deseable',
  benefits: 'Beneficios',
  closedTitle: 'Este puesto está cerrado',
  closedBody: 'Ya no acepta candidaturas. Gracias por tu interés.',
  notFound: 'Página no encontrada',
  notFoundBody: 'Este empleo no existe o no está publicado.',
  next: 'Más empleos',
  noJobs: 'No hay puestos abiertos ahora mismo.',
  applyFor: (r, c) => `Postúlate a ${r} en ${c}`,
  name: 'Nombre completo',
  email: 'Correo electrónico',
  phone: 'Teléfono',
  cityRegion: 'Dónde vives (ciudad, región)',
  cv: 'Tu CV (PDF)',
  cvHint: (mb) => `Un PDF con texto seleccionable, de hasta ${mb} MB.`,
  coverNote: 'Carta de presentación',
  optional: 'opcional',
  consentHeading: 'Cómo se usa tu candidatura',
  submit: 'Acepto: enviar mi candidatura',
  honeypot: 'Deja este campo vacío',
  thanksTitle: 'Candidatura enviada',
  thanksBody: (e) =>
    `Gracias. Enviaremos a ${e} un enlace para ver, reclamar o eliminar el CV que recibe el empleador.`,
  duplicateTitle: 'Ya te has postulado',
  duplicateBody: 'Ya tenemos tu candidatura para este puesto, así que no se ha enviado nada nuevo.',
  fixErrors: 'Corrige los campos indicados abajo.',
  required_: 'Este campo es obligatorio.',
  invalidEmail: 'Escribe un correo como nombre@ejemplo.com.',
  tooLong: 'Es demasiado largo.',
  tooMany: 'Demasiados intentos desde tu conexión. Espera un minuto y vuelve a intentarlo.',
  expiredForm: 'Este formulario ha caducado. Envíalo de nuevo.',
  languages: 'Idioma',
};

const fr: PageWords = {
  jobs: 'Offres',
  apply: 'Postuler',
  posted: 'Publiée le',
  closes: 'Fin des candidatures',
  salary: 'Salaire',
  location: 'Lieu',
  remote: { onsite: 'Sur site', hybrid: 'Hybride', remote: 'À distance' },
  employment: { full_time: 'Temps plein', part_time: 'Temps partiel' },
  contract: {
    permanent: 'CDI',
    part_time: 'Temps partiel',
    fixed_term: 'CDD',
    contract: 'Mission',
    casual: 'Occasionnel',
  },
  per: (p) => `par ${p}`,
  periods: { hour: 'heure', day: 'jour', week: 'semaine', month: 'mois', year: 'an' },
  responsibilities: 'Vos missions',
  skills: 'Compétences',
  required: 'Requis',
  niceToHave: 'Appréciable',
  benefits: 'Avantages',
  closedTitle: 'Ce poste est pourvu ou fermé',
  closedBody: "Il n'accepte plus de candidatures. Merci de votre intérêt.",
  notFound: 'Page introuvable',
  notFoundBody: "Cette offre n'existe pas ou n'est pas publiée.",
  next: "Plus d'offres",
  noJobs: "Aucun poste ouvert pour l'instant.",
  applyFor: (r, c) => `Postuler au poste ${r} chez ${c}`,
  name: 'Nom complet',
  email: 'E-mail',
  phone: 'Téléphone',
  cityRegion: 'Où vous habitez (ville, région)',
  cv: 'Votre CV (PDF)',
  cvHint: (mb) => `Un PDF au texte sélectionnable, ${mb} Mo au plus.`,
  coverNote: 'Lettre de motivation',
  optional: 'facultatif',
  consentHeading: 'Comment votre candidature est utilisée',
  submit: "J'accepte — envoyer ma candidature",
  honeypot: 'Laissez ce champ vide',
  thanksTitle: 'Candidature envoyée',
  thanksBody: (e) =>
    `Merci. Nous enverrons à ${e} un lien pour voir, récupérer ou supprimer le CV que reçoit l'employeur.`,
  duplicateTitle: 'Vous avez déjà postulé',
  duplicateBody: 'Nous avons déjà votre candidature pour ce poste : rien de nouveau n’a été envoyé.',
  fixErrors: 'Corrigez les champs signalés ci-dessous.',
  required_: 'Ce champ est obligatoire.',
  invalidEmail: 'Saisissez une adresse comme nom@exemple.com.',
  tooLong: 'Trop long.',
  tooMany: 'Trop de tentatives depuis votre connexion. Patientez une minute puis réessayez.',
  expiredForm: 'Ce formulaire a expiré. Envoyez-le de nouveau.',
  languages: 'Langue',
};

const pt: PageWords = {
  jobs: 'Vagas',
  apply: 'Candidatar-me',
  posted: 'Publicada em',
  closes: 'Candidaturas até',
  salary: 'Salário',
  location: 'Local',
  remote: { onsite: 'Presencial', hybrid: 'Híbrido', remote: 'Remoto' },
  employment: { full_time: 'Tempo inteiro', part_time: 'Tempo parcial' },
  contract: {
    permanent: 'Efetivo',
    part_time: 'Tempo parcial',
    fixed_term: 'Termo certo',
    contract: 'Prestação de serviços',
    casual: 'Pontual',
  },
  per: (p) => `por ${p}`,
  periods: { hour: 'hora', day: 'dia', week: 'semana', month: 'mês', year: 'ano' },
  responsibilities: 'O que vai fazer',
  skills: 'Competências',
  required: 'Obrigatório',
  niceToHave: 'Valorizado',
  benefits: 'Benefícios',
  closedTitle: 'Esta vaga está fechada',
  closedBody: 'Já não aceita candidaturas. Obrigado pelo seu interesse.',
  notFound: 'Página não encontrada',
  notFoundBody: 'Esta vaga não existe ou não está publicada.',
  next: 'Mais vagas',
  noJobs: 'Não há vagas abertas de momento.',
  applyFor: (r, c) => `Candidatura a ${r} na ${c}`,
  name: 'Nome completo',
  email: 'E-mail',
  phone: 'Telefone',
  cityRegion: 'Onde vive (cidade, região)',
  cv: 'O seu CV (PDF)',
  cvHint: (mb) => `Um PDF com texto selecionável, até ${mb} MB.`,
  coverNote: 'Carta de apresentação',
  optional: 'opcional',
  consentHeading: 'Como a sua candidatura é usada',
  submit: 'Aceito — enviar a minha candidatura',
  honeypot: 'Deixe este campo vazio',
  thanksTitle: 'Candidatura enviada',
  thanksBody: (e) =>
    `Obrigado. Enviaremos para ${e} um link para ver, reivindicar ou eliminar o CV que o empregador recebe.`,
  duplicateTitle: 'Já se candidatou',
  duplicateBody: 'Já temos a sua candidatura para esta vaga, por isso nada de novo foi enviado.',
  fixErrors: 'Corrija os campos assinalados abaixo.',
  required_: 'Este campo é obrigatório.',
  invalidEmail: 'Escreva um e-mail como nome@exemplo.com.',
  tooLong: 'É demasiado longo.',
  tooMany: 'Demasiadas tentativas a partir da sua ligação. Aguarde um minuto e tente de novo.',
  expiredForm: 'Este formulário expirou. Envie-o de novo.',
  languages: 'Idioma',
};

export const PAGE_WORDS: Record<PageLang, PageWords> = { en, es, fr, pt };

export function formatDate(lang: PageLang, iso: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
}

export function formatMoney(lang: PageLang, amount: number, currency: string | undefined): string {
  try {
    return currency
      ? new Intl.NumberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount)
      : new Intl.NumberFormat(lang, { maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}
