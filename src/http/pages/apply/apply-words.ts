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
  /** The button's label (and the status) while the form is being sent. */
  sending: string;
  /** The upload progress bar's label. */
  uploading: string;
  /** The upload's progress in words; `{n}` is the percentage. */
  uploaded: string;
  /** The script is solving the proof of work asked after a burst. */
  checking: string;
  /** The connection failed while sending: the form is as it was, to send again. */
  sendFailed: string;
  /** Past a burst, to a browser without JavaScript: the answer will take a few seconds. */
  burstNoScript: string;
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
    sending: 'Sending your application…',
    uploading: 'Uploading your CV',
    uploaded: '{n}% uploaded',
    checking: 'Finishing a short security check…',
    sendFailed:
      'Your application could not be sent: the connection failed. Check it and press the button again; nothing you entered was lost.',
    burstNoScript:
      'Many applications are arriving from your network just now. After you press the button, the next page can take a few seconds to appear: please press it only once.',
  },
  es: {
    fileKept: (n) => `Hemos guardado el archivo que enviaste (${n}); no hace falta elegirlo de nuevo.`,
    replaceFile: 'Elige otro archivo solo si quieres sustituirlo.',
    earlierFile: 'el archivo enviado antes',
    tryAgain:
      'No hemos podido recibir tu candidatura en este momento. Tus datos y tu archivo se conservan: vuelve a enviar el formulario en un momento.',
    backToRole: (r) => `Volver a ${r}`,
    allJobs: 'Ver todos los empleos',
    sending: 'Enviando tu candidatura…',
    uploading: 'Subiendo tu CV',
    uploaded: '{n}% subido',
    checking: 'Terminando una breve comprobación de seguridad…',
    sendFailed:
      'No se ha podido enviar tu candidatura: falló la conexión. Compruébala y pulsa el botón de nuevo; no se ha perdido nada de lo que escribiste.',
    burstNoScript:
      'Ahora mismo llegan muchas candidaturas desde tu red. Después de pulsar el botón, la página siguiente puede tardar unos segundos en aparecer: púlsalo solo una vez.',
  },
  fr: {
    fileKept: (n) => `Nous avons gardé le fichier envoyé (${n}) ; inutile de le choisir à nouveau.`,
    replaceFile: 'Choisissez un autre fichier seulement pour le remplacer.',
    earlierFile: 'le fichier envoyé plus tôt',
    tryAgain:
      'Nous n’avons pas pu recevoir votre candidature pour le moment. Vos informations et votre fichier sont conservés : renvoyez le formulaire dans un instant.',
    backToRole: (r) => `Retour à ${r}`,
    allJobs: 'Voir toutes les offres',
    sending: 'Envoi de votre candidature…',
    uploading: 'Envoi de votre CV',
    uploaded: '{n} % envoyé',
    checking: 'Dernière courte vérification de sécurité…',
    sendFailed:
      'Votre candidature n’a pas pu être envoyée : la connexion a échoué. Vérifiez-la et appuyez de nouveau sur le bouton ; rien de ce que vous avez saisi n’est perdu.',
    burstNoScript:
      'De nombreuses candidatures arrivent de votre réseau en ce moment. Après avoir appuyé sur le bouton, la page suivante peut mettre quelques secondes à s’afficher : n’appuyez qu’une fois.',
  },
  pt: {
    fileKept: (n) => `Guardámos o ficheiro que enviou (${n}); não precisa de o escolher outra vez.`,
    replaceFile: 'Escolha outro ficheiro apenas para o substituir.',
    earlierFile: 'o ficheiro enviado antes',
    tryAgain:
      'Não foi possível receber a sua candidatura agora. Os seus dados e o ficheiro estão guardados: envie o formulário novamente dentro de momentos.',
    backToRole: (r) => `Voltar a ${r}`,
    allJobs: 'Ver todas as vagas',
    sending: 'A enviar a sua candidatura…',
    uploading: 'A enviar o seu CV',
    uploaded: '{n}% enviado',
    checking: 'A concluir uma breve verificação de segurança…',
    sendFailed:
      'Não foi possível enviar a sua candidatura: a ligação falhou. Verifique-a e carregue novamente no botão; nada do que escreveu se perdeu.',
    burstNoScript:
      'Estão a chegar muitas candidaturas da sua rede neste momento. Depois de carregar no botão, a página seguinte pode demorar alguns segundos a aparecer: carregue só uma vez.',
  },
};
