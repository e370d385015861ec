import type { PageLang } from '../i18n.ts';

/** The apply page's own words, beside the shared page words. */
export interface ApplyWords {
  /** The form was answered again after an error: the file sent is kept, named. */
  fileKept: (name: string) => string;
  /** Beside the file input when a kept file would be replaced. */
  replaceFile: string;
  /** The kept file's name when only its uploadId came back with the form. */
  earlierFile: string;
  /** The service failed to take the form this time. */
  tryAgain: string;
  backToRole: (role: string) => string;
  allJobs: string;
}

export const APPLY_WORDS: Record<PageLang, ApplyWords> = {
  en: {
    fileKept: (n) => `We kept the file you sent (${n}); you do not need to choose it again.`,
    replaceFile: 'Choose another file only to replace it.',
    earlierFile: 'the file sent earlier',
    tryAgain:
      'We could not take your application just now. Your details and file are kept: please send the form again in a moment.',
    backToRole: (r) => `Back to ${r}`,
    allJobs: 'See all jobs',
  },
  es: {
    fileKept: (n) => `Hemos guardado el archivo que enviaste (${n}); no hace falta elegirlo de nuevo.`,
    replaceFile: 'Elige otro archivo solo si quieres sustituirlo.',
    earlierFile: 'el archivo enviado antes',
    tryAgain:
      'No hemos podido recibir tu candidatura en este momento. Tus datos y tu archivo se conservan: vuelve a enviar el formulario en un momento.',
    backToRole: (r) => `Volver a ${r}`,
    allJobs: 'Ver todos los empleos',
  },
  fr: {
    fileKept: (n) => `Nous avons gardé le fichier envoyé (${n}) ; inutile de le choisir à nouveau.`,
    replaceFile: 'Choisissez un autre fichier seulement pour le remplacer.',
    earlierFile: 'le fichier envoyé plus tôt',
    tryAgain:
      'Nous n’avons pas pu recevoir votre candidature pour le moment. Vos informations et votre fichier sont conservés : renvoyez le formulaire dans un instant.',
    backToRole: (r) => `Retour à ${r}`,
    allJobs: 'Voir toutes les offres',
  },
  pt: {
    fileKept: (n) => `Guardámos o ficheiro que enviou (${n}); não precisa de o escolher outra vez.`,
    replaceFile: 'Escolha outro ficheiro apenas para o substituir.',
    earlierFile: 'o ficheiro enviado antes',
    tryAgain:
      'Não foi possível receber a sua candidatura agora. Os seus dados e o ficheiro estão guardados: envie o formulário novamente dentro de momentos.',
    backToRole: (r) => `Voltar a ${r}`,
    allJobs: 'Ver todas as vagas',
  },
};
