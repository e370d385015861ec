import type { Locale } from '../../contract/vocabulary.ts';

/**
 * The import outcome `rejected`: a readable PDF that does not read as a CV. Its `detail` and `fix`
 * are written to be shown to the person, like `cv_rejected`'s, in the import's locale.
 */
export interface NotACv {
  reason: 'not_a_cv';
  detail: string;
  fix: string;
}

const WORDS: Record<Locale, Omit<NotACv, 'reason'>> = {
  en: {
    detail:
      'The file is a readable PDF, but it does not read as a CV: no contact details, dates or CV sections were found.',
    fix: 'Send the CV itself as a PDF: a document with your name, contact details, experience and education.',
  },
  es: {
    detail:
      'El archivo es un PDF legible, pero no parece un CV: no se encontraron datos de contacto, fechas ni secciones de CV.',
    fix: 'Envía el propio CV en PDF: un documento con tu nombre, datos de contacto, experiencia y formación.',
  },
  fr: {
    detail:
      "Le fichier est un PDF lisible, mais ce n'est pas un CV : aucune coordonnée, aucune date ni section de CV n'a été trouvée.",
    fix: 'Envoyez le CV lui-même en PDF : un document avec votre nom, vos coordonnées, votre expérience et votre formation.',
  },
  pt: {
    detail:
      'O ficheiro é um PDF legível, mas não parece um CV: não foram encontrados contactos, datas nem secções de CV.',
    fix: 'Envie o próprio CV em PDF: um documento com o seu nome, contactos, experiência e formação.',
  },
};

export function notACv(locale: Locale): NotACv {
  return { reason: 'not_a_cv', ...WORDS[locale] };
}
