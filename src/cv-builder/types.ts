// The virtual CV: a JSON Resume document (jsonresume/resume-schema field names, partial ISO
// dates) whose extensions live under an `x` key on each object, except `isCurrent` on work and
// education entries, which readers need next to the dates. The document still validates against
// the JSON Resume schema (it allows additional properties). docs/virtual-cv.md is the reference
// for every field.

export const VIRTUAL_CV_SCHEMA_VERSION = 'vcv-1.0';

export type CvLanguage = 'en' | 'es' | 'fr' | 'pt';

/** "YYYY", "YYYY-MM" or "YYYY-MM-DD": only as precise as the CV says. */
export type PartialIsoDate = string;

/** Where a value came from: the CV's text, or the name/email sent with the application. */
export type FieldOrigin = 'text' | 'prior';

/** How sure the builder is of one value, and what it read. */
export interface FieldMeta {
  /** 0..1; see docs/virtual-cv.md for the bands. */
  confidence: number;
  origin: FieldOrigin;
  /** The text as printed, when the value was normalised from it (a date range, a phone). */
  raw?: string;
  /** 1-based page of the text the value came from. */
  page?: number;
}

export interface VirtualCvLocation {
  address?: string;
  postalCode?: string;
  city?: string;
  region?: string;
  /** ISO 3166-1 alpha-2, when the country is printed or follows from the city or region. */
  countryCode?: string;
}

export interface VirtualCvProfile {
  network: string;
  username?: string;
  url: string;
  x: { confidence: number };
}

export type BasicsField = 'name' | 'label' | 'email' | 'phone' | 'url' | 'summary' | 'location';

export interface VirtualCvBasics {
  name?: string;
  /** Headline under the name, e.g. "Backend Engineer". */
  label?: string;
  email?: string;
  phone?: string;
  /** A personal site; network profiles (LinkedIn, GitHub…) are in `profiles`. */
  url?: string;
  summary?: string;
  location?: VirtualCvLocation;
  profiles: VirtualCvProfile[];
  x: { fields: Partial<Record<BasicsField, FieldMeta>> };
}

export type WorkField = 'position' | 'name' | 'location' | 'startDate' | 'endDate';

export interface VirtualCvWork {
  /** Employer. */
  name?: string;
  /** Job title. */
  position?: string;
  location?: string;
  startDate?: PartialIsoDate;
  /** Omitted while the role is current. */
  endDate?: PartialIsoDate;
  summary?: string;
  highlights: string[];
  /** True while the role is ongoing ("Present", "Actualidad", "Atual"…); `endDate` is then omitted. */
  isCurrent: boolean;
  x: { fields: Partial<Record<WorkField, FieldMeta>> };
}

export type EducationField = 'institution' | 'studyType' | 'area' | 'startDate' | 'endDate';

export interface VirtualCvEducation {
  institution?: string;
  /** The field of study, e.g. "Computer Science". */
  area?: string;
  /** The qualification, e.g. "Bachelor", "Máster", "Licence". */
  studyType?: string;
  startDate?: PartialIsoDate;
  endDate?: PartialIsoDate;
  isCurrent: boolean;
  x: { fields: Partial<Record<EducationField, FieldMeta>> };
}

export interface VirtualCvSkill {
  name: string;
  level?: string;
  keywords?: string[];
  x: { confidence: number };
}

export interface VirtualCvLanguage {
  language: string;
  fluency?: string;
  x: { confidence: number; code?: string; cefr?: 'A1' | 'A2' | 'B1' | 'B2' | 'C1' | 'C2' | 'native' };
}

export type SectionKind =
  | 'header'
  | 'summary'
  | 'work'
  | 'education'
  | 'skills'
  | 'languages'
  | 'contact'
  | 'projects'
  | 'certificates'
  | 'interests'
  | 'other';

export interface VirtualCvMeta {
  version: typeof VIRTUAL_CV_SCHEMA_VERSION;
  x: {
    pages: number;
    /** 'two_column' when any page was read as two columns. */
    layout: 'one_column' | 'two_column';
    /** Columns detected on each page, in page order. */
    columnsPerPage: (1 | 2)[];
    sections: { kind: SectionKind; heading: string; page: number }[];
    /** Language of the headings and dates; the application's locale when the text says nothing. */
    language?: CvLanguage;
    /** 0..1: how much of a CV was found (name, contact, work, education) and how surely. */
    confidence: number;
    warnings: string[];
  };
}

export interface VirtualCv {
  basics: VirtualCvBasics;
  work: VirtualCvWork[];
  education: VirtualCvEducation[];
  skills: VirtualCvSkill[];
  languages: VirtualCvLanguage[];
  meta: VirtualCvMeta;
}

/** The name, email and locale sent with the application: strong hints, not facts about the PDF. */
export interface CvPrior {
  name?: string;
  email?: string;
  locale?: CvLanguage;
}
