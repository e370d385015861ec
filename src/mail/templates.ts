import type { Locale as ConsentLocale } from '../contract/vocabulary.ts';
import { html, type SafeHtml, safeUrl } from '../lib/html.ts';
import { dateFormat } from '../lib/intl.ts';

export interface ClaimMailInput {
  locale: ConsentLocale;
  name: string;
  company: string;
  /** The role applied to; absent for a candidate imported without an application. */
  role: string | null;
  link: string;
  expiresAt: Date;
}

interface Copy {
  subject: (c: ClaimMailInput) => string;
  lines: (c: ClaimMailInput, date: string) => string[];
  action: string;
}

/** At most this many characters of a first name are written in a greeting. */
export const GREETING_NAME_MAX = 30;
const FIRST_NAME = /^\p{L}[\p{L}\p{M}'’-]*$/u;

/**
 * The first name a service mail may greet with: the first word of the name given, when it is only
 * letters (with inner hyphens or apostrophes) and short. Anything else (a URL, digits, a sentence
 * in one word, 200 characters of someone's text) greets generically: the service never mails the
 * words an anonymous sender typed to the address they typed.
 */
export function greetingName(name: string): string | null {
  const first = name.normalize('NFC').trim().split(/\s+/, 1)[0] ?? '';
  if (first.length === 0 || first.length > GREETING_NAME_MAX || !FIRST_NAME.test(first)) return null;
  return first;
}

function greeting(locale: ConsentLocale, name: string): string {
  const first = greetingName(name);
  switch (locale) {
    case 'es':
      return first ? `Hola, ${first}:` : 'Hola:';
    case 'fr':
      return first ? `Bonjour ${first},` : 'Bonjour,';
    case 'pt':
      return first ? `Olá, ${first},` : 'Olá,';
    default:
      return first ? `Hello ${first},` : 'Hello,';
  }
}

const dateIn = (locale: ConsentLocale, at: Date) =>
  dateFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(at);

/**
 * The notice of automated matching (extensions.md §7 "The candidate is told"): said in the claim
 * mail and the account notice, with the way to say no (the page's "Don't match me" button).
 */
const MATCHING_NOTICE: Record<ConsentLocale, (company: string) => string> = {
  en: (c) =>
    `${c} may also match your CV to its other roles with an automated system. You can say no: the page the link opens has a "Don't match me" button.`,
  es: (c) =>
    `${c} también puede proponer tu CV para sus otros puestos mediante un sistema automatizado. Puedes negarte: la página que abre el enlace tiene un botón «No emparejarme».`,
  fr: (c) =>
    `${c} peut aussi rapprocher votre CV de ses autres postes à l'aide d'un système automatisé. Vous pouvez refuser : la page ouverte par le lien a un bouton « Ne pas me proposer ».`,
  pt: (c) =>
    `A ${c} pode também associar o seu CV às suas outras vagas através de um sistema automatizado. Pode recusar: a página que o link abre tem um botão «Não me associar».`,
};

const CLAIM: Record<ConsentLocale, Copy> = {
  en: {
    subject: (c) => (c.role ? `Your CV for ${c.role} at ${c.company}` : `${c.company} holds your CV`),
    lines: (c, date) => [
      greeting('en', c.name),
      c.role
        ? `Thank you for applying for ${c.role} at ${c.company}. We read the CV you sent and made a structured copy of it (a virtual CV) for the employer.`
        : `${c.company} added you to its candidate pool with your CV. We made a structured copy of it (a virtual CV).`,
      'Open the link below to see it. You can claim it, to keep it and control who sees it, or delete it and your file.',
      `If you do neither, both are deleted automatically on ${date}.`,
    ],
    action: 'See my virtual CV',
  },
  es: {
    subject: (c) => (c.role ? `Tu CV para ${c.role} en ${c.company}` : `${c.company} tiene tu CV`),
    lines: (c, date) => [
      greeting('es', c.name),
      c.role
        ? `Gracias por postularte a ${c.role} en ${c.company}. Hemos leído el CV que enviaste y hemos creado una copia estructurada (un CV virtual) para el empleador.`
        : `${c.company} te ha añadido a su base de candidatos con tu CV. Hemos creado una copia estructurada (un CV virtual).`,
      'Abre el enlace para verlo. Puedes reclamarlo, para conservarlo y decidir quién lo ve, o eliminarlo junto con tu archivo.',
      `Si no haces ninguna de las dos cosas, ambos se eliminarán automáticamente el ${date}.`,
    ],
    action: 'Ver mi CV virtual',
  },
  fr: {
    subject: (c) => (c.role ? `Votre CV pour ${c.role} chez ${c.company}` : `${c.company} détient votre CV`),
    lines: (c, date) => [
      greeting('fr', c.name),
      c.role
        ? `Merci d'avoir postulé au poste ${c.role} chez ${c.company}. Nous avons lu le CV que vous avez envoyé et en avons fait une copie structurée (un CV virtuel) pour l'employeur.`
        : `${c.company} vous a ajouté à son vivier de candidats avec votre CV. Nous en avons fait une copie structurée (un CV virtuel).`,
      'Ouvrez le lien ci-dessous pour le consulter. Vous pouvez le récupérer, pour le garder et choisir qui le voit, ou le supprimer avec votre fichier.',
      `Si vous ne faites ni l'un ni l'autre, les deux seront supprimés automatiquement le ${date}.`,
    ],
    action: 'Voir mon CV virtuel',
  },
  pt: {
    subject: (c) => (c.role ? `O seu CV para ${c.role} na ${c.company}` : `A ${c.company} tem o seu CV`),
    lines: (c, date) => [
      greeting('pt', c.name),
      c.role
        ? `Obrigado pela sua candidatura a ${c.role} na ${c.company}. Lemos o CV que enviou e criámos uma cópia estruturada (um CV virtual) para o empregador.`
        : `A ${c.company} adicionou-o à sua base de candidatos com o seu CV. Criámos uma cópia estruturada (um CV virtual).`,
      'Abra o link abaixo para o ver. Pode reivindicá-lo, para o guardar e decidir quem o vê, ou eliminá-lo juntamente com o seu ficheiro.',
      `Se não fizer nenhuma das duas coisas, ambos serão eliminados automaticamente em ${date}.`,
    ],
    action: 'Ver o meu CV virtual',
  },
};

const NOTICE: Record<ConsentLocale, Copy> = {
  en: {
    subject: (c) => `${c.company} would like your CV`,
    lines: (c) => [
      greeting('en', c.name),
      `${c.company} holds your name and email address as a possible candidate. Nothing was built from the file they had: you already keep your own CV with us.`,
      'Open the link below to share your own CV with them, or to ask them to delete your details.',
    ],
    action: 'Choose what to share',
  },
  es: {
    subject: (c) => `${c.company} quiere tu CV`,
    lines: (c) => [
      greeting('es', c.name),
      `${c.company} guarda tu nombre y tu correo como posible candidato. No hemos creado nada a partir del archivo que tenían: ya tienes tu propio CV con nosotros.`,
      'Abre el enlace para compartir tu propio CV con ellos o para pedir que eliminen tus datos.',
    ],
    action: 'Elegir qué compartir',
  },
  fr: {
    subject: (c) => `${c.company} aimerait recevoir votre CV`,
    lines: (c) => [
      greeting('fr', c.name),
      `${c.company} détient votre nom et votre adresse e-mail en tant que candidat potentiel. Rien n'a été créé à partir du fichier qu'ils avaient : vous gérez déjà votre propre CV chez nous.`,
      'Ouvrez le lien ci-dessous pour leur partager votre propre CV, ou pour leur demander de supprimer vos données.',
    ],
    action: 'Choisir ce que je partage',
  },
  pt: {
    subject: (c) => `A ${c.company} gostaria de receber o seu CV`,
    lines: (c) => [
      greeting('pt', c.name),
      `A ${c.company} guarda o seu nome e e-mail como possível candidato. Nada foi criado a partir do ficheiro que tinham: já mantém o seu próprio CV connosco.`,
      'Abra o link abaixo para partilhar o seu próprio CV com eles, ou para pedir que eliminem os seus dados.',
    ],
    action: 'Escolher o que partilhar',
  },
};

/**
 * A service mail's HTML part: one paragraph per line, and the link to act on when there is one
 * (the console's invitation mail is written with it too).
 */
export function mailHtml(
  locale: string,
  lines: readonly string[],
  action?: { label: string; link: string },
): SafeHtml {
  const link = action && html`<p><a href="${safeUrl(action.link)}">${action.label}</a></p>`;
  return html`<!doctype html><html lang="${locale}"><body style="font-family:sans-serif;line-height:1.5">${lines.map((line) => html`<p>${line}</p>`)}${link}</body></html>`;
}

function render(copy: Copy, input: ClaimMailInput): { subject: string; text: string; html: SafeHtml } {
  const lines = [
    ...copy.lines(input, dateIn(input.locale, input.expiresAt)),
    MATCHING_NOTICE[input.locale](input.company),
  ];
  const subject = copy.subject(input);
  const text = `${lines.join('\n\n')}\n\n${copy.action}: ${input.link}\n`;
  return { subject, text, html: mailHtml(input.locale, lines, { label: copy.action, link: input.link }) };
}

export function claimMail(input: ClaimMailInput) {
  return render(CLAIM[input.locale], input);
}

export function accountNoticeMail(input: ClaimMailInput) {
  return render(NOTICE[input.locale], input);
}

export interface ScreeningInviteInput {
  locale: ConsentLocale;
  name: string;
  company: string;
  role: string;
  message: string | null;
  completeBy: Date;
}

const INVITE: Record<
  ConsentLocale,
  {
    subject: (c: ScreeningInviteInput) => string;
    lines: (c: ScreeningInviteInput, date: string) => string[];
    note: string;
  }
> = {
  en: {
    subject: (c) => `${c.company} invites you to a screening for ${c.role}`,
    lines: (c, date) => [
      greeting('en', c.name),
      `${c.company} would like you to take a short automated screening for ${c.role}.`,
      `Please complete it by ${date}.`,
    ],
    note: 'A note from the employer:',
  },
  es: {
    subject: (c) => `${c.company} te invita a una evaluación para ${c.role}`,
    lines: (c, date) => [
      greeting('es', c.name),
      `${c.company} quiere que realices una breve evaluación automatizada para ${c.role}.`,
      `Complétala antes del ${date}.`,
    ],
    note: 'Una nota del empleador:',
  },
  fr: {
    subject: (c) => `${c.company} vous invite à une présélection pour ${c.role}`,
    lines: (c, date) => [
      greeting('fr', c.name),
      `${c.company} vous propose une courte présélection automatisée pour le poste ${c.role}.`,
      `Merci de la terminer avant le ${date}.`,
    ],
    note: "Un mot de l'employeur :",
  },
  pt: {
    subject: (c) => `A ${c.company} convida-o para uma triagem para ${c.role}`,
    lines: (c, date) => [
      greeting('pt', c.name),
      `A ${c.company} gostaria que fizesse uma breve triagem automatizada para ${c.role}.`,
      `Conclua-a até ${date}.`,
    ],
    note: 'Uma nota do empregador:',
  },
};

export function screeningInviteMail(input: ScreeningInviteInput) {
  const copy = INVITE[input.locale];
  const date =
    dateFormat(input.locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(
      input.completeBy,
    ) + ' UTC';
  const lines = copy.lines(input, date);
  const note = input.message ? [copy.note, input.message] : [];
  const text = [...lines, ...note].join('\n\n') + '\n';
  return { subject: copy.subject(input), text, html: mailHtml(input.locale, [...lines, ...note]) };
}

/** The console's password reset (extensions.md §4): one link, once, for an hour. */
export function passwordResetMail(link: string, company: string) {
  const lines = [
    `Someone asked to reset the password of your account on the careers console of ${company}.`,
    'Open the link below to choose a new password; it works once and expires in one hour. If you did not ask, ignore this message: your password stays as it is.',
  ];
  return {
    subject: `Reset your ${company} careers console password`,
    text: `${lines.join('\n\n')}\n\nChoose a new password: ${link}\n`,
    html: mailHtml('en', lines, { label: 'Choose a new password', link }),
  };
}
