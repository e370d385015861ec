import { type ApplicationCreated, type ApplicationWrite, INTAKE_MAX } from '../../contract/intake.ts';
import type { Clock } from '../../lib/clock.ts';
import { type ConsentLocale, currentConsentText } from '../consent/consent-texts.ts';
import type { ApplicationService } from './application-service.ts';
import type { UploadService } from './upload-service.ts';

/** What a candidate sent through the hosted apply form, read from the request (fields as typed). */
export interface HostedSubmission {
  name: string;
  email: string;
  phone?: string;
  location?: string;
  coverNote?: string;
  /** The page's language: the consent text shown was this language's current version. */
  locale: ConsentLocale;
  /** The client's address as derived through the trusted proxies (the receipt's `ip`). */
  clientAddress: string;
  /** The address of the socket the form came over, kept beside it (internal only). */
  socketAddress: string;
  userAgent: string;
  source: 'integrator_site' | 'job_page';
  /** The upload the page's script sent, or the form's file kept by `keepFile`. */
  uploadId: string;
  /** The answers to the job's questions, typed as the API takes them (§5). */
  answers?: ApplicationWrite['answers'];
  /** Where the candidate came from: the route, and the landing address's utm_* (§5, Source). */
  sourceDetail?: ApplicationWrite['source'];
}

/**
 * The hosted apply form as an application: the service writes the consent receipt itself (the
 * current text of the page's language, accepted now by the server's clock), attests the lawful
 * basis (the candidate's own consent on this page) and stores the form's file as an upload.
 */
export function createHostedApplyService(deps: {
  clock: Clock;
  uploads: UploadService;
  applications: ApplicationService;
}) {
  const { clock, uploads, applications } = deps;
  return {
    /** Room for one more file from this address (checked before the form's body is read). */
    async ensureRoom(accountId: string, addressBucket: string, bytes: number): Promise<void> {
      await uploads.ensureRoom(accountId, bytes, { bucket: addressBucket });
    },

    /**
     * Stores the form's file as a hosted upload (minutes of life): the form, answered again after
     * an error, names it so the candidate does not choose the file again.
     */
    async keepFile(
      accountId: string,
      addressBucket: string,
      file: { path: string; bytes: number; name: string },
    ): Promise<string> {
      return uploads.createFromFile(accountId, file.path, file.bytes, file.name, { bucket: addressBucket });
    },

    async submit(accountId: string, jobId: string, form: HostedSubmission): Promise<ApplicationCreated> {
      const text = currentConsentText(form.locale);
      // The form's fields as typed: trimmed, and an empty optional one is not given.
      const given = (value: string | undefined) => value?.trim() || undefined;
      const phone = given(form.phone);
      const location = given(form.location);
      const coverNote = given(form.coverNote);
      const input: ApplicationWrite = {
        name: form.name.trim(),
        email: form.email.trim(),
        ...(phone ? { phone } : {}),
        ...(location ? { location } : {}),
        ...(coverNote ? { coverNote } : {}),
        cv: { uploadId: form.uploadId },
        ...(form.answers && form.answers.length > 0 ? { answers: form.answers } : {}),
        ...(form.sourceDetail ? { source: form.sourceDetail } : {}),
        consent: {
          consentTextId: text.consentTextId,
          version: text.version,
          locale: form.locale,
          acceptedAt: clock.now().toISOString(),
          ip: form.clientAddress,
          userAgent: form.userAgent.slice(0, INTAKE_MAX.userAgent) || 'unknown',
        },
        lawfulBasis: {
          attested: true,
          basis: 'candidate_consent_on_hosted_apply_page',
        } as ApplicationWrite['lawfulBasis'],
      };
      return applications.apply(accountId, jobId, input, form.source, undefined, {
        socketAddress: form.socketAddress,
      });
    },
  };
}

export type HostedApplyService = ReturnType<typeof createHostedApplyService>;
