/**
 * The consent wording the service owns, as versioned data. A wording change is a new version
 * appended here; older versions stay, so every stored receipt can be resolved to its exact words.
 * Each application also keeps its own copy of the text it was made under.
 */
import type { ConsentText } from '../../contract/intake.ts';
import { isLocale, LOCALES, type Locale } from '../../contract/vocabulary.ts';

export const CONSENT_LOCALES = LOCALES;
export type ConsentLocale = Locale;

export const API_APPLY_TEXT_ID = 'console_api_apply';
export const CURRENT_VERSION = 'api_apply_v1';

type Wording = Record<ConsentLocale, string>;

const API_APPLY_V1: Wording = {
  en: [
    'By applying, you agree that the employer of this role and its careers service provider process your application and the CV you upload in order to consider you for this role.',
    'The service provider reads your CV to build a structured copy of it (a virtual CV) for the employer, and stores your details only for recruitment.',
    'We will email you one link: use it to claim your virtual CV and keep control of it, or to delete it. If you do neither, the virtual CV and your file are deleted automatically after the period that email states.',
    'You can withdraw your consent at any time through that link, or by writing to the employer; your CV is then erased.',
  ].join(' '),
  es: [
    'Al postularte, aceptas que el empleador de este puesto y su proveedor de servicios de empleo traten tu candidatura y el CV que subas para valorarte para este puesto.',
    'El proveedor lee tu CV para crear una copia estructurada (un CV virtual) para el empleador y guarda tus datos solo con fines de selección.',
    'Te enviaremos un único enlace por correo: úsalo para reclamar tu CV virtual y mantener el control sobre él, o para eliminarlo. Si no haces ninguna de las dos cosas, el CV virtual y tu archivo se eliminan automáticamente al cumplirse el plazo que indica ese correo.',
    'Puedes retirar tu consentimiento en cualquier momento desde ese enlace o escribiendo al empleador; tu CV se borra entonces.',
  ].join(' '),
  fr: [
    "En postulant, vous acceptez que l'employeur de ce poste et son prestataire de service de recrutement traitent votre candidature et le CV que vous déposez afin d'examiner votre candidature à ce poste.",
    "Le prestataire lit votre CV pour en créer une copie structurée (un CV virtuel) destinée à l'employeur, et ne conserve vos données qu'à des fins de recrutement.",
    "Nous vous enverrons un seul lien par e-mail : il vous permet de récupérer votre CV virtuel et d'en garder la maîtrise, ou de le supprimer. Si vous ne faites ni l'un ni l'autre, le CV virtuel et votre fichier sont supprimés automatiquement à l'issue du délai indiqué dans cet e-mail.",
    "Vous pouvez retirer votre consentement à tout moment via ce lien ou en écrivant à l'employeur ; votre CV est alors effacé.",
  ].join(' '),
  pt: [
    'Ao candidatar-se, concorda que o empregador desta vaga e o seu prestador de serviços de recrutamento tratem a sua candidatura e o CV que enviar para avaliar a sua candidatura a esta vaga.',
    'O prestador lê o seu CV para criar uma cópia estruturada (um CV virtual) para o empregador e guarda os seus dados apenas para fins de recrutamento.',
    'Enviaremos um único link por e-mail: use-o para reivindicar o seu CV virtual e manter o controlo sobre ele, ou para o eliminar. Se não fizer nenhuma das duas coisas, o CV virtual e o seu ficheiro são eliminados automaticamente no fim do prazo indicado nesse e-mail.',
    'Pode retirar o seu consentimento a qualquer momento através desse link ou escrevendo ao empregador; o seu CV é então apagado.',
  ].join(' '),
};

const CATALOGUE: Record<string, Record<string, Wording>> = {
  [API_APPLY_TEXT_ID]: { [CURRENT_VERSION]: API_APPLY_V1 },
};

/**
 * When each version was first handed out: a receipt accepted before its version existed is not a
 * record of anyone reading those words. A new version gets the date of the release that ships it.
 */
const FIRST_HANDED_OUT: Record<string, Record<string, Date>> = {
  [API_APPLY_TEXT_ID]: { [CURRENT_VERSION]: new Date('2025-01-01T00:00:00Z') },
};

export function versionFirstHandedOut(textId: string, version: string): Date | null {
  return FIRST_HANDED_OUT[textId]?.[version] ?? null;
}

export function currentConsentText(locale: ConsentLocale, textId = API_APPLY_TEXT_ID): ConsentText {
  return {
    consentTextId: textId,
    version: CURRENT_VERSION,
    locale,
    text: CATALOGUE[textId]![CURRENT_VERSION]![locale],
  };
}

/** The exact words of a text id and version in a locale, or null when they were never handed out. */
export function resolveConsentText(textId: string, version: string, locale: ConsentLocale): string | null {
  return CATALOGUE[textId]?.[version]?.[locale] ?? null;
}

export const isConsentLocale: (value: string) => value is ConsentLocale = isLocale;

export function isKnownTextId(textId: string): boolean {
  return CATALOGUE[textId] !== undefined;
}
