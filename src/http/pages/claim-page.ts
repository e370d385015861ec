import { Type } from 'typebox';
import type { ConsentLocale } from '../../domain/consent/consent-texts.ts';
import type { LinkState } from '../../domain/cv/cv-service.ts';
import { escapeHtml } from '../../lib/html.ts';
import type { Route } from '../types.ts';
import { sendPage } from './page-shell.ts';

interface Words {
  title: string;
  intro: (company: string, role: string | null) => string;
  noticeIntro: (company: string) => string;
  claim: string;
  delete: string;
  share: string;
  forget: string;
  claimed: string;
  claimedBody: string;
  deleted: string;
  deletedBody: string;
  gone: string;
  goneUsed: string;
  goneExpired: string;
  unknown: string;
  unknownBody: string;
  experience: string;
  education: string;
  skills: string;
  languages: string;
  present: string;
  empty: string;
}

const WORDS: Record<ConsentLocale, Words> = {
  en: {
    title: 'Your virtual CV',
    intro: (c, r) =>
      `This is what ${c} sees of the CV you sent${r ? ` for ${r}` : ''}. Claim it to keep it and control who sees it, or delete it and your file.`,
    noticeIntro: (c) =>
      `${c} holds your name and email address. Share your own CV with them, or ask for your details to be deleted.`,
    claim: 'Claim my virtual CV',
    delete: 'Delete my CV and details',
    share: 'Share my own CV',
    forget: 'Delete my details',
    claimed: 'Done: the CV is yours',
    claimedBody: 'You claimed your virtual CV. It will not be deleted automatically.',
    deleted: 'Deleted',
    deletedBody: 'Your CV file, your virtual CV and your details have been erased.',
    gone: 'This link is no longer active',
    goneUsed: 'This link has already been used.',
    goneExpired: 'This link has expired, and the CV it pointed to has been deleted.',
    unknown: 'Link not found',
    unknownBody: 'Check that you copied the whole link from the email.',
    experience: 'Experience',
    education: 'Education',
    skills: 'Skills',
    languages: 'Languages',
    present: 'present',
    empty: 'We could not read details from your CV file.',
  },
  es: {
    title: 'Tu CV virtual',
    intro: (c, r) =>
      `Esto es lo que ${c} ve del CV que enviaste${r ? ` para ${r}` : ''}. Reclámalo para conservarlo y decidir quién lo ve, o elimínalo junto con tu archivo.`,
    noticeIntro: (c) =>
      `${c} guarda tu nombre y tu correo. Comparte tu propio CV o pide que eliminen tus datos.`,
    claim: 'Reclamar mi CV virtual',
    delete: 'Eliminar mi CV y mis datos',
    share: 'Compartir mi propio CV',
    forget: 'Eliminar mis datos',
    claimed: 'Listo: el CV es tuyo',
    claimedBody: 'Has reclamado tu CV virtual. No se eliminará automáticamente.',
    deleted: 'Eliminado',
    deletedBody: 'Tu archivo, tu CV virtual y tus datos se han borrado.',
    gone: 'Este enlace ya no está activo',
    goneUsed: 'Este enlace ya se ha usado.',
    goneExpired: 'Este enlace ha caducado y el CV al que apuntaba se ha eliminado.',
    unknown: 'Enlace no encontrado',
    unknownBody: 'Comprueba que has copiado el enlace completo del correo.',
    experience: 'Experiencia',
    education: 'Formación',
    skills: 'Habilidades',
    languages: 'Idiomas',
    present: 'actualidad',
    empty: 'No hemos podido leer datos de tu archivo.',
  },
  fr: {
    title: 'Votre CV virtuel',
    intro: (c, r) =>
      `Voici ce que ${c} voit du CV que vous avez envoyé${r ? ` pour ${r}` : ''}. Récupérez-le pour le garder et choisir qui le voit, ou supprimez-le avec votre fichier.`,
    noticeIntro: (c) =>
      `${c} détient votre nom et votre adresse e-mail. Partagez votre propre CV, ou demandez la suppression de vos données.`,
    claim: 'Récupérer mon CV virtuel',
    delete: 'Supprimer mon CV et mes données',
    share: 'Partager mon propre CV',
    forget: 'Supprimer mes données',
    claimed: "C'est fait : le CV est à vous",
    claimedBody: 'Vous avez récupéré votre CV virtuel. Il ne sera pas supprimé automatiquement.',
    deleted: 'Supprimé',
    deletedBody: 'Votre fichier, votre CV virtuel et vos données ont été effacés.',
    gone: "Ce lien n'est plus actif",
    goneUsed: 'Ce lien a déjà été utilisé.',
    goneExpired: 'Ce lien a expiré et le CV correspondant a été supprimé.',
    unknown: 'Lien introuvable',
    unknownBody: "Vérifiez que vous avez copié le lien complet depuis l'e-mail.",
    experience: 'Expérience',
    education: 'Formation',
    skills: 'Compétences',
    languages: 'Langues',
    present: "aujourd'hui",
    empty: "Nous n'avons pas pu lire d'informations dans votre fichier.",
  },
  pt: {
    title: 'O seu CV virtual',
    intro: (c, r) =>
      `É isto que a ${c} vê do CV que enviou${r ? ` para ${r}` : ''}. Reivindique-o para o guardar e decidir quem o vê, ou elimine-o juntamente com o seu ficheiro.`,
    noticeIntro: (c) =>
      `A ${c} guarda o seu nome e e-mail. Partilhe o seu próprio CV ou peça que eliminem os seus dados.`,
    claim: 'Reivindicar o meu CV virtual',
    delete: 'Eliminar o meu CV e os meus dados',
    share: 'Partilhar o meu próprio CV',
    forget: 'Eliminar os meus dados',
    claimed: 'Feito: o CV é seu',
    claimedBody: 'Reivindicou o seu CV virtual. Não será eliminado automaticamente.',
    deleted: 'Eliminado',
    deletedBody: 'O seu ficheiro, o seu CV virtual e os seus dados foram apagados.',
    gone: 'Este link já não está ativo',
    goneUsed: 'Este link já foi utilizado.',
    goneExpired: 'Este link expirou e o CV a que se referia foi eliminado.',
    unknown: 'Link não encontrado',
    unknownBody: 'Verifique se copiou o link completo do e-mail.',
    experience: 'Experiência',
    education: 'Formação',
    skills: 'Competências',
    languages: 'Línguas',
    present: 'atual',
    empty: 'Não conseguimos ler dados do seu ficheiro.',
  },
};

type Json = Record<string, unknown>;
const text = (value: unknown): string => {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'value' in value) return text((value as Json).value);
  return '';
};
const list = (value: unknown): Json[] =>
  Array.isArray(value) ? (value.filter((v) => v && typeof v === 'object') as Json[]) : [];
const e = escapeHtml;

function period(entry: Json, w: Words): string {
  const start = text(entry.startDate);
  const end = entry.isCurrent === true ? w.present : text(entry.endDate);
  return start || end ? ` <span class="muted">(${e(start)}${end ? ` – ${e(end)}` : ''})</span>` : '';
}

/** The virtual CV as the employer will see it; every value escaped. */
export function renderVirtualCv(cv: Json | null, w: Words): string {
  if (!cv) return `<section class="cv"><p>${e(w.empty)}</p></section>`;
  const basics = (cv.basics ?? {}) as Json;
  const parts: string[] = [];
  const name = text(basics.name);
  if (name) parts.push(`<h2>${e(name)}</h2>`);
  const label = text(basics.label);
  if (label) parts.push(`<p>${e(label)}</p>`);
  const summary = text(basics.summary);
  if (summary) parts.push(`<p>${e(summary)}</p>`);
  const work = list(cv.work);
  if (work.length > 0) {
    parts.push(`<h2>${e(w.experience)}</h2><ul>`);
    for (const job of work) {
      const highlights = (Array.isArray(job.highlights) ? job.highlights : [])
        .map((h) => `<li>${e(text(h))}</li>`)
        .join('');
      parts.push(
        `<li><strong>${e(text(job.position))}</strong>${text(job.name) ? `, ${e(text(job.name))}` : ''}${period(job, w)}${highlights ? `<ul>${highlights}</ul>` : ''}</li>`,
      );
    }
    parts.push('</ul>');
  }
  const education = list(cv.education);
  if (education.length > 0) {
    parts.push(`<h2>${e(w.education)}</h2><ul>`);
    for (const item of education) {
      const what = [text(item.studyType), text(item.area)].filter(Boolean).join(', ');
      parts.push(
        `<li><strong>${e(what || text(item.institution))}</strong>${what && text(item.institution) ? `, ${e(text(item.institution))}` : ''}${period(item, w)}</li>`,
      );
    }
    parts.push('</ul>');
  }
  const skills = list(cv.skills)
    .map((s) => text(s.name))
    .filter(Boolean);
  if (skills.length > 0) parts.push(`<h2>${e(w.skills)}</h2><p>${skills.map(e).join(', ')}</p>`);
  const languages = list(cv.languages)
    .map((l) => [text(l.language), text(l.fluency)].filter(Boolean).join(' — '))
    .filter(Boolean);
  if (languages.length > 0) parts.push(`<h2>${e(w.languages)}</h2><p>${languages.map(e).join(', ')}</p>`);
  return `<section class="cv">${parts.join('') || `<p>${e(w.empty)}</p>`}</section>`;
}

function answer(reply: Parameters<typeof sendPage>[0], state: LinkState, done?: 'claimed' | 'deleted') {
  if (state.kind === 'unknown') {
    const w = WORDS.en;
    return sendPage(reply, 404, 'en', w.unknown, `<h1>${e(w.unknown)}</h1><p>${e(w.unknownBody)}</p>`);
  }
  const w = WORDS[state.locale];
  if (state.kind === 'gone') {
    return sendPage(
      reply,
      410,
      state.locale,
      w.gone,
      `<h1>${e(w.gone)}</h1><p>${e(state.why === 'used' ? w.goneUsed : w.goneExpired)}</p>`,
    );
  }
  if (done === 'claimed')
    return sendPage(
      reply,
      200,
      state.locale,
      w.claimed,
      `<h1>${e(w.claimed)}</h1><p>${e(w.claimedBody)}</p>`,
    );
  if (done === 'deleted')
    return sendPage(
      reply,
      200,
      state.locale,
      w.deleted,
      `<h1>${e(w.deleted)}</h1><p>${e(w.deletedBody)}</p>`,
    );
  const notice = state.subject.outcome === 'existing_account';
  const body = [
    `<h1>${e(w.title)}</h1>`,
    `<p>${e(notice ? w.noticeIntro(state.company) : w.intro(state.company, state.role))}</p>`,
    notice ? '' : renderVirtualCv(state.cv, w),
    '<div class="actions">',
    `<form method="post" action="${e(reply.request.url.split('?')[0])}/claim"><button type="submit">${e(notice ? w.share : w.claim)}</button></form>`,
    `<form method="post" action="${e(reply.request.url.split('?')[0])}/delete"><button type="submit" class="secondary">${e(notice ? w.forget : w.delete)}</button></form>`,
    '</div>',
  ].join('');
  return sendPage(reply, 200, state.locale, w.title, body);
}

// No length bound here: a token that is not ours, whatever its length, answers the 404 page rather
// than a JSON 400 (openLink checks the shape; the router already caps a parameter at 200 chars).
const TokenParams = Type.Object({ token: Type.String() });

/** The candidate's link: the page, and the two buttons (console.md "Candidate links"). */
export const claimPages: Route = (app, { cv }) => {
  app.register(async (pages) => {
    // The buttons post an empty HTML form; only the route's own path carries meaning.
    pages.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 1024 },
      (_req, _body, done) => done(null, {}),
    );
    pages.get('/cv/:token', { schema: { hide: true, params: TokenParams } }, async (request, reply) =>
      answer(reply, await cv.openLink((request.params as { token: string }).token)),
    );
    pages.post(
      '/cv/:token/claim',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const state = await cv.claim((request.params as { token: string }).token);
        return answer(reply, state, 'claimed');
      },
    );
    pages.post(
      '/cv/:token/delete',
      { schema: { hide: true, params: TokenParams } },
      async (request, reply) => {
        const state = await cv.delete((request.params as { token: string }).token);
        return answer(reply, state, 'deleted');
      },
    );
  });
};
