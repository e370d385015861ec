import type { PageLang } from './i18n.ts';

/** The words of the candidate's claim link page (console.md "Candidate links"), per page language. */
export interface ClaimWords {
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
  /** The contact details the CV gives, and their terms. */
  contact: string;
  email: string;
  phone: string;
  location: string;
  links: string;
  /** The page of a CV already claimed (or an own CV already shared). */
  claimedIntro: (company: string) => string;
  sharedIntro: (company: string) => string;
  /** The notice of automated matching (extensions.md §7 "The candidate is told"), and the way to say no. */
  matchingNotice: (company: string) => string;
  optOut: string;
  optedOut: string;
  optedOutBody: (company: string) => string;
}

export const CLAIM_WORDS: Record<PageLang, ClaimWords> = {
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
    contact: 'Contact details',
    email: 'Email',
    phone: 'Phone',
    location: 'Location',
    links: 'Links',
    claimedIntro: (c) =>
      `You claimed this CV. ${c} sees it as shown below. You can delete it, with your file and details, at any time while this link works.`,
    sharedIntro: (c) => `You shared your own CV with ${c}. You can still ask for your details to be deleted.`,
    matchingNotice: (c) =>
      `${c} may also match your CV to its other roles with an automated system, which compares it with each role's description. You can say no: choose "Don't match me" and you leave every candidate pool of ${c} and are never matched there again.`,
    optOut: "Don't match me",
    optedOut: 'You will not be matched',
    optedOutBody: (c) =>
      `${c} will not match you to its roles by automated means: you have left all of its candidate pools, and this is recorded. You can still use the other buttons on this page.`,
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
    contact: 'Datos de contacto',
    email: 'Correo electrónico',
    phone: 'Teléfono',
    location: 'Ubicación',
    links: 'Enlaces',
    claimedIntro: (c) =>
      `Reclamaste este CV. ${c} lo ve como se muestra abajo. Puedes eliminarlo, con tu archivo y tus datos, en cualquier momento mientras este enlace funcione.`,
    sharedIntro: (c) => `Compartiste tu propio CV con ${c}. Aún puedes pedir que eliminen tus datos.`,
    matchingNotice: (c) =>
      `${c} también puede proponer tu CV para sus otros puestos mediante un sistema automatizado, que lo compara con la descripción de cada puesto. Puedes negarte: elige «No emparejarme» y saldrás de todas las bases de candidatos de ${c} y nunca volverás a ser propuesto allí.`,
    optOut: 'No emparejarme',
    optedOut: 'No se te propondrá',
    optedOutBody: (c) =>
      `${c} no te propondrá para sus puestos por medios automatizados: has salido de todas sus bases de candidatos y queda registrado. Aún puedes usar los otros botones de esta página.`,
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
    contact: 'Coordonnées',
    email: 'E-mail',
    phone: 'Téléphone',
    location: 'Lieu',
    links: 'Liens',
    claimedIntro: (c) =>
      `Vous avez récupéré ce CV. ${c} le voit tel qu'affiché ci-dessous. Vous pouvez le supprimer, avec votre fichier et vos données, à tout moment tant que ce lien fonctionne.`,
    sharedIntro: (c) =>
      `Vous avez partagé votre propre CV avec ${c}. Vous pouvez toujours demander la suppression de vos données.`,
    matchingNotice: (c) =>
      `${c} peut aussi rapprocher votre CV de ses autres postes à l'aide d'un système automatisé, qui le compare à la description de chaque poste. Vous pouvez refuser : choisissez « Ne pas me proposer » et vous quittez tous les viviers de candidats de ${c}, sans jamais y être proposé à nouveau.`,
    optOut: 'Ne pas me proposer',
    optedOut: 'Vous ne serez pas proposé',
    optedOutBody: (c) =>
      `${c} ne vous proposera pas pour ses postes par des moyens automatisés : vous avez quitté tous ses viviers de candidats, et c'est enregistré. Vous pouvez toujours utiliser les autres boutons de cette page.`,
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
    contact: 'Contactos',
    email: 'E-mail',
    phone: 'Telefone',
    location: 'Localização',
    links: 'Ligações',
    claimedIntro: (c) =>
      `Reivindicou este CV. A ${c} vê-o como mostrado abaixo. Pode eliminá-lo, com o seu ficheiro e os seus dados, a qualquer momento enquanto este link funcionar.`,
    sharedIntro: (c) => `Partilhou o seu próprio CV com a ${c}. Ainda pode pedir que eliminem os seus dados.`,
    matchingNotice: (c) =>
      `A ${c} pode também associar o seu CV às suas outras vagas através de um sistema automatizado, que o compara com a descrição de cada vaga. Pode recusar: escolha «Não me associar» e sai de todas as bases de candidatos da ${c}, sem nunca mais ser associado lá.`,
    optOut: 'Não me associar',
    optedOut: 'Não será associado',
    optedOutBody: (c) =>
      `A ${c} não o associará às suas vagas por meios automatizados: saiu de todas as suas bases de candidatos, e isso fica registado. Ainda pode usar os outros botões desta página.`,
  },
};
