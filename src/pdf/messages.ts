import { numberFormat } from '../lib/intl.ts';
import type { CvLocale, CvRejectReason } from './types.ts';

export interface CvLimits {
  maxBytes: number;
  maxPages: number;
}

interface Wording {
  detail: string;
  fix: string;
}

type Catalogue = Record<CvRejectReason, (mb: string, pages: string) => Wording>;

const MIB = 1024 * 1024;

// Rounded down so the message never promises more than the real limit.
function megabytes(maxBytes: number, locale: CvLocale): string {
  const mb = Math.floor((maxBytes / MIB) * 10) / 10;
  return numberFormat(locale, { maximumFractionDigits: 1 }).format(mb);
}

const PAGE_WORDS: Record<CvLocale, { one: string; other: string }> = {
  en: { one: 'page', other: 'pages' },
  es: { one: 'página', other: 'páginas' },
  fr: { one: 'page', other: 'pages' },
  pt: { one: 'página', other: 'páginas' },
};

function pageCount(maxPages: number, locale: CvLocale): string {
  const words = PAGE_WORDS[locale];
  const form = new Intl.PluralRules(locale).select(maxPages) === 'one' ? words.one : words.other;
  return `${numberFormat(locale).format(maxPages)}\u00a0${form}`;
}

// French typography puts a no-break space before a colon and between a number and its unit.
const CATALOGUES: Record<CvLocale, Catalogue> = {
  en: {
    wrong_type: () => ({
      detail: "This file is not a PDF, so we can't read it.",
      fix: 'Save or export your CV as a PDF (.pdf) and upload that file. Word documents and images are not accepted.',
    }),
    too_large: (mb) => ({
      detail: `Your file is larger than ${mb}\u00a0MB, the most we can accept.`,
      fix: `Save your CV as a PDF under ${mb}\u00a0MB (for example, remove large photos or choose a smaller file size when exporting), then upload it again.`,
    }),
    too_many_pages: (_mb, pages) => ({
      detail: `Your CV has more than ${pages}, the most we can accept.`,
      fix: `Shorten your CV to ${pages} or fewer, then upload it again.`,
    }),
    encrypted: () => ({
      detail: "Your PDF is protected with a password, so we can't open it.",
      fix: 'Remove the password (for example, open the file and save or print it as a new PDF without protection), then upload the new file.',
    }),
    no_text_layer: () => ({
      detail: "Your PDF looks like a scan or a photo: we couldn't find any text in it that we can read.",
      fix: 'Export your CV to PDF straight from your word processor or CV tool (File › Save as PDF, or Print › Save as PDF) instead of scanning it, then upload it again.',
    }),
    corrupt: () => ({
      detail: "We couldn't open your PDF: the file seems to be damaged or incomplete.",
      fix: 'Export your CV to PDF again, check that it opens on your device, then upload the new file.',
    }),
  },
  es: {
    wrong_type: () => ({
      detail: 'Este archivo no es un PDF, así que no podemos leerlo.',
      fix: 'Guarda o exporta tu CV en formato PDF (.pdf) y sube ese archivo. No se aceptan documentos de Word ni imágenes.',
    }),
    too_large: (mb) => ({
      detail: `Tu archivo supera los ${mb}\u00a0MB, el tamaño máximo que aceptamos.`,
      fix: `Guarda tu CV como PDF de menos de ${mb}\u00a0MB (por ejemplo, quitando fotos grandes o eligiendo un tamaño menor al exportar) y vuelve a subirlo.`,
    }),
    too_many_pages: (_mb, pages) => ({
      detail: `Tu CV tiene más de ${pages}, el máximo que aceptamos.`,
      fix: `Reduce tu CV a ${pages} como máximo y vuelve a subirlo.`,
    }),
    encrypted: () => ({
      detail: 'Tu PDF está protegido con contraseña, así que no podemos abrirlo.',
      fix: 'Quita la contraseña (por ejemplo, abre el archivo y guárdalo o imprímelo como un PDF nuevo sin protección) y sube el archivo nuevo.',
    }),
    no_text_layer: () => ({
      detail: 'Tu PDF parece un escaneo o una foto: no hemos encontrado ningún texto que podamos leer.',
      fix: 'Exporta tu CV a PDF directamente desde tu procesador de textos o tu herramienta de CV (Archivo › Guardar como PDF, o Imprimir › Guardar como PDF) en lugar de escanearlo, y vuelve a subirlo.',
    }),
    corrupt: () => ({
      detail: 'No hemos podido abrir tu PDF: el archivo parece estar dañado o incompleto.',
      fix: 'Vuelve a exportar tu CV a PDF, comprueba que se abre en tu dispositivo y sube el archivo nuevo.',
    }),
  },
  fr: {
    wrong_type: () => ({
      detail: 'Ce fichier n’est pas un PDF\u00a0: nous ne pouvons pas le lire.',
      fix: 'Enregistrez ou exportez votre CV au format PDF (.pdf) et envoyez ce fichier. Les documents Word et les images ne sont pas acceptés.',
    }),
    too_large: (mb) => ({
      detail: `Votre fichier dépasse ${mb}\u00a0Mo, la taille maximale que nous acceptons.`,
      fix: `Enregistrez votre CV en PDF de moins de ${mb}\u00a0Mo (par exemple en retirant les grandes photos ou en choisissant une taille réduite à l’export), puis envoyez-le à nouveau.`,
    }),
    too_many_pages: (_mb, pages) => ({
      detail: `Votre CV compte plus de ${pages}, le maximum que nous acceptons.`,
      fix: `Réduisez votre CV à ${pages} au maximum, puis envoyez-le à nouveau.`,
    }),
    encrypted: () => ({
      detail: 'Votre PDF est protégé par un mot de passe\u00a0: nous ne pouvons pas l’ouvrir.',
      fix: 'Retirez le mot de passe (par exemple en ouvrant le fichier puis en l’enregistrant ou en l’imprimant dans un nouveau PDF sans protection), puis envoyez le nouveau fichier.',
    }),
    no_text_layer: () => ({
      detail: 'Votre PDF semble être un scan ou une photo\u00a0: nous n’y avons trouvé aucun texte lisible.',
      fix: 'Exportez votre CV en PDF directement depuis votre traitement de texte ou votre outil de CV (Fichier › Enregistrer au format PDF, ou Imprimer › Enregistrer au format PDF) au lieu de le scanner, puis envoyez-le à nouveau.',
    }),
    corrupt: () => ({
      detail: 'Nous n’avons pas pu ouvrir votre PDF\u00a0: le fichier semble endommagé ou incomplet.',
      fix: 'Exportez à nouveau votre CV en PDF, vérifiez qu’il s’ouvre sur votre appareil, puis envoyez le nouveau fichier.',
    }),
  },
  pt: {
    wrong_type: () => ({
      detail: 'Este arquivo não é um PDF, por isso não conseguimos lê-lo.',
      fix: 'Salve ou exporte seu currículo em PDF (.pdf) e envie esse arquivo. Documentos do Word e imagens não são aceitos.',
    }),
    too_large: (mb) => ({
      detail: `Seu arquivo tem mais de ${mb}\u00a0MB, o tamanho máximo que aceitamos.`,
      fix: `Salve seu currículo como PDF com menos de ${mb}\u00a0MB (por exemplo, removendo fotos grandes ou escolhendo um tamanho menor ao exportar) e envie-o novamente.`,
    }),
    too_many_pages: (_mb, pages) => ({
      detail: `Seu currículo tem mais de ${pages}, o máximo que aceitamos.`,
      fix: `Reduza seu currículo para no máximo ${pages} e envie-o novamente.`,
    }),
    encrypted: () => ({
      detail: 'Seu PDF está protegido por senha, por isso não conseguimos abri-lo.',
      fix: 'Remova a senha (por exemplo, abra o arquivo e salve ou imprima como um novo PDF sem proteção) e envie o novo arquivo.',
    }),
    no_text_layer: () => ({
      detail:
        'Seu PDF parece ser uma digitalização ou uma foto: não encontramos nenhum texto que possamos ler.',
      fix: 'Exporte seu currículo para PDF diretamente do seu editor de texto ou da sua ferramenta de currículo (Arquivo › Salvar como PDF, ou Imprimir › Salvar como PDF) em vez de digitalizá-lo, e envie-o novamente.',
    }),
    corrupt: () => ({
      detail: 'Não conseguimos abrir seu PDF: o arquivo parece estar danificado ou incompleto.',
      fix: 'Exporte seu currículo para PDF novamente, verifique se ele abre no seu dispositivo e envie o novo arquivo.',
    }),
  },
};

/** Candidate-facing wording for a refused CV, in the receipt's locale. */
export function rejectionMessage(reason: CvRejectReason, locale: CvLocale, limits: CvLimits): Wording {
  return CATALOGUES[locale][reason](megabytes(limits.maxBytes, locale), pageCount(limits.maxPages, locale));
}
