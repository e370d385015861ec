export type CvRejectReason =
  | 'wrong_type'
  | 'too_large'
  | 'too_many_pages'
  | 'encrypted'
  | 'no_text_layer'
  | 'corrupt';

export type CvLocale = 'en' | 'es' | 'fr' | 'pt';

/**
 * One run of text as pdf.js reports it. Coordinates are PDF points (1/72 in) from the bottom-left
 * corner of the page's view box, y pointing up, page rotation not applied; `height` is the font
 * size in points. `fontName` is the PostScript name without the subset tag (e.g.
 * `LiberationSans-Bold`) or pdf.js's internal id when the font could not be named.
 */
export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fontName: string;
  bold: boolean;
  italic: boolean;
}

export interface PdfPage {
  width: number;
  height: number;
  items: PdfTextItem[];
}

export type CvCheckResult =
  | { ok: true; pages: number; text: PdfPage[] }
  | { ok: false; reason: CvRejectReason };
