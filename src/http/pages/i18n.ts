import type { ConsentLocale } from '../../domain/consent/consent-texts.ts';
import { dateFormat, numberFormat } from '../../lib/intl.ts';

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

/**
 * A word table kept by word: each entry holds its four translations side by side, in PAGE_LANGS
 * order, so a missing or stray translation does not type-check and a reviewer reads one word in
 * every language at once.
 */
export type Translated<T> = { [K in keyof T]: readonly [en: T[K], es: T[K], fr: T[K], pt: T[K]] };

/** A word-major table turned into one table per language. */
export function byLanguage<T>(table: Translated<T>): Record<PageLang, T> {
  const entries = Object.entries(table) as [string, readonly unknown[]][];
  return Object.fromEntries(
    PAGE_LANGS.map((lang, i) => [lang, Object.fromEntries(entries.map(([key, words]) => [key, words[i]]))]),
  ) as Record<PageLang, T>;
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
  /** Test mode (extensions.md §8): the notice on a test job's pages. */
  testJob: string;
  testJobBody: string;
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

const WORDS: Translated<PageWords> = {
  jobs: ['Jobs', 'Empleos', 'Offres', 'Vagas'],
  apply: ['Apply now', 'Postularme', 'Postuler', 'Candidatar-me'],
  posted: ['Posted', 'Publicado', 'Publiée le', 'Publicada em'],
  closes: ['Applications close', 'Cierre de candidaturas', 'Fin des candidatures', 'Candidaturas até'],
  salary: ['Salary', 'Salario', 'Salaire', 'Salário'],
  location: ['Location', 'Ubicación', 'Lieu', 'Local'],
  remote: [
    { onsite: 'On site', hybrid: 'Hybrid', remote: 'Remote' },
    { onsite: 'Presencial', hybrid: 'Híbrido', remote: 'Remoto' },
    { onsite: 'Sur site', hybrid: 'Hybride', remote: 'À distance' },
    { onsite: 'Presencial', hybrid: 'Híbrido', remote: 'Remoto' },
  ],
  employment: [
    { full_time: 'Full time', part_time: 'Part time' },
    { full_time: 'Jornada completa', part_time: 'Media jornada' },
    { full_time: 'Temps plein', part_time: 'Temps partiel' },
    { full_time: 'Tempo inteiro', part_time: 'Tempo parcial' },
  ],
  contract: [
    {
      permanent: 'Permanent',
      part_time: 'Part time',
      fixed_term: 'Fixed term',
      contract: 'Contract',
      casual: 'Casual',
    },
    {
      permanent: 'Indefinido',
      part_time: 'Tiempo parcial',
      fixed_term: 'Temporal',
      contract: 'Por contrato',
      casual: 'Eventual',
    },
    {
      permanent: 'CDI',
      part_time: 'Temps partiel',
      fixed_term: 'CDD',
      contract: 'Mission',
      casual: 'Occasionnel',
    },
    {
      permanent: 'Efetivo',
      part_time: 'Tempo parcial',
      fixed_term: 'Termo certo',
      contract: 'Prestação de serviços',
      casual: 'Pontual',
    },
  ],
  per: [(p) => `per ${p}`, (p) => `por ${p}`, (p) => `par ${p}`, (p) => `por ${p}`],
  periods: [
    { hour: 'hour', day: 'day', week: 'week', month: 'month', year: 'year' },
    { hour: 'hora', day: 'día', week: 'semana', month: 'mes', year: 'año' },
    { hour: 'heure', day: 'jour', week: 'semaine', month: 'mois', year: 'an' },
    { hour: 'hora', day: 'dia', week: 'semana', month: 'mês', year: 'ano' },
  ],
  responsibilities: ['What you will do', 'Qué harás', 'Vos missions', 'O que vai fazer'],
  skills: ['Skills', 'Habilidades', 'Compétences', 'Competências'],
  required: ['Required', 'Imprescindible', 'Requis', 'Obrigatório'],
  niceToHave: ['Nice to have', 'Deseable', 'Appréciable', 'Valorizado'],
  benefits: ['Benefits', 'Beneficios', 'Avantages', 'Benefícios'],
  closedTitle: [
    'This role has closed',
    'Este puesto está cerrado',
    'Ce poste est pourvu ou fermé',
    'Esta vaga está fechada',
  ],
  testJob: ['Test job', 'Empleo de prueba', "Offre d'essai", 'Vaga de teste'],
  testJobBody: [
    'This job was made with a test key. It is not a real vacancy: applications to it are test data and no email is sent.',
    'Este empleo se creó con una clave de prueba. No es una vacante real: sus candidaturas son datos de prueba y no se envía ningún correo.',
    "Cette offre a été créée avec une clé de test. Ce n'est pas un vrai poste : ses candidatures sont des données de test et aucun e-mail n'est envoyé.",
    'Esta vaga foi criada com uma chave de teste. Não é uma vaga real: as candidaturas são dados de teste e nenhum e-mail é enviado.',
  ],
  closedBody: [
    'It no longer takes applications. Thank you for your interest.',
    'Ya no acepta candidaturas. Gracias por tu interés.',
    "Il n'accepte plus de candidatures. Merci de votre intérêt.",
    'Já não aceita candidaturas. Obrigado pelo seu interesse.',
  ],
  notFound: ['Page not found', 'Página no encontrada', 'Page introuvable', 'Página não encontrada'],
  notFoundBody: [
    'This job does not exist, or is not published.',
    'Este empleo no existe o no está publicado.',
    "Cette offre n'existe pas ou n'est pas publiée.",
    'Esta vaga não existe ou não está publicada.',
  ],
  next: ['More jobs', 'Más empleos', "Plus d'offres", 'Mais vagas'],
  noJobs: [
    'No open roles right now.',
    'No hay puestos abiertos ahora mismo.',
    "Aucun poste ouvert pour l'instant.",
    'Não há vagas abertas de momento.',
  ],
  applyFor: [
    (r, c) => `Apply for ${r} at ${c}`,
    (r, c) => `Postúlate a ${r} en ${c}`,
    (r, c) => `Postuler au poste ${r} chez ${c}`,
    (r, c) => `Candidatura a ${r} na ${c}`,
  ],
  name: ['Full name', 'Nombre completo', 'Nom complet', 'Nome completo'],
  email: ['Email', 'Correo electrónico', 'E-mail', 'E-mail'],
  phone: ['Phone', 'Teléfono', 'Téléphone', 'Telefone'],
  cityRegion: [
    'Where you live (city, region)',
    'Dónde vives (ciudad, región)',
    'Où vous habitez (ville, région)',
    'Onde vive (cidade, região)',
  ],
  cv: ['Your CV (PDF)', 'Tu CV (PDF)', 'Votre CV (PDF)', 'O seu CV (PDF)'],
  cvHint: [
    (mb) => `A PDF with selectable text, up to ${mb} MB.`,
    (mb) => `Un PDF con texto seleccionable, de hasta ${mb} MB.`,
    (mb) => `Un PDF au texte sélectionnable, ${mb} Mo au plus.`,
    (mb) => `Um PDF com texto selecionável, até ${mb} MB.`,
  ],
  coverNote: ['Cover note', 'Carta de presentación', 'Lettre de motivation', 'Carta de apresentação'],
  optional: ['optional', 'opcional', 'facultatif', 'opcional'],
  consentHeading: [
    'How your application is used',
    'Cómo se usa tu candidatura',
    'Comment votre candidature est utilisée',
    'Como a sua candidatura é usada',
  ],
  submit: [
    'I agree — send my application',
    'Acepto: enviar mi candidatura',
    "J'accepte — envoyer ma candidature",
    'Aceito — enviar a minha candidatura',
  ],
  honeypot: [
    'Leave this field empty',
    'Deja este campo vacío',
    'Laissez ce champ vide',
    'Deixe este campo vazio',
  ],
  thanksTitle: ['Application sent', 'Candidatura enviada', 'Candidature envoyée', 'Candidatura enviada'],
  thanksBody: [
    (e) => `Thank you. We will email ${e} a link to see, claim or delete the CV the employer receives.`,
    (e) =>
      `Gracias. Enviaremos a ${e} un enlace para ver, reclamar o eliminar el CV que recibe el empleador.`,
    (e) =>
      `Merci. Nous enverrons à ${e} un lien pour voir, récupérer ou supprimer le CV que reçoit l'employeur.`,
    (e) =>
      `Obrigado. Enviaremos para ${e} um link para ver, reivindicar ou eliminar o CV que o empregador recebe.`,
  ],
  duplicateTitle: [
    'You already applied',
    'Ya te has postulado',
    'Vous avez déjà postulé',
    'Já se candidatou',
  ],
  duplicateBody: [
    'We already have your application for this role, so nothing new was sent.',
    'Ya tenemos tu candidatura para este puesto, así que no se ha enviado nada nuevo.',
    'Nous avons déjà votre candidature pour ce poste : rien de nouveau n’a été envoyé.',
    'Já temos a sua candidatura para esta vaga, por isso nada de novo foi enviado.',
  ],
  fixErrors: [
    'Please correct the fields marked below.',
    'Corrige los campos indicados abajo.',
    'Corrigez les champs signalés ci-dessous.',
    'Corrija os campos assinalados abaixo.',
  ],
  required_: [
    'This field is required.',
    'Este campo es obligatorio.',
    'Ce champ est obligatoire.',
    'Este campo é obrigatório.',
  ],
  invalidEmail: [
    'Enter an email address like name@example.com.',
    'Escribe un correo como nombre@ejemplo.com.',
    'Saisissez une adresse comme nom@exemple.com.',
    'Escreva um e-mail como nome@exemplo.com.',
  ],
  tooLong: ['This is too long.', 'Es demasiado largo.', 'Trop long.', 'É demasiado longo.'],
  tooMany: [
    'Too many attempts from your connection. Please wait a minute and try again.',
    'Demasiados intentos desde tu conexión. Espera un minuto y vuelve a intentarlo.',
    'Trop de tentatives depuis votre connexion. Patientez une minute puis réessayez.',
    'Demasiadas tentativas a partir da sua ligação. Aguarde um minuto e tente de novo.',
  ],
  expiredForm: [
    'This form expired. Please send it again.',
    'Este formulario ha caducado. Envíalo de nuevo.',
    'Ce formulaire a expiré. Envoyez-le de nouveau.',
    'Este formulário expirou. Envie-o de novo.',
  ],
  languages: ['Language', 'Idioma', 'Langue', 'Idioma'],
};

export const PAGE_WORDS: Record<PageLang, PageWords> = byLanguage(WORDS);

export function formatDate(lang: PageLang, iso: string): string {
  return dateFormat(lang, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(iso));
}

export function formatMoney(lang: PageLang, amount: number, currency: string | undefined): string {
  try {
    return currency
      ? numberFormat(lang, { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount)
      : numberFormat(lang, { maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount} ${currency ?? ''}`.trim();
  }
}
