import fsp from 'node:fs/promises';
import { MAX_UPLOAD_BYTES, type UploadSlot } from '../../contract/intake.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { newId } from '../../lib/ids.ts';
import { type CvRejectReason, ParserPoolUnavailable, rejectionMessage } from '../../pdf/cv-check.ts';
import type { ConsentLocale } from '../consent/consent-texts.ts';
import { badRequest, conflict, cvRejected, rateLimited, unavailable, uploadInvalid } from '../errors.ts';
import type { CheckShare, CvFileStore, CvInspector, CvLimits, CvVerdict, TextDetail } from '../ports.ts';
import type { Seal } from '../seal.ts';
import { type UploadHolder, type UploadRow, uploadRepository } from './upload-repository.ts';

/** Who issued an upload and may name it: the API (and the console), or the hosted apply form. */
export type UploadChannel = 'api' | 'hosted';

export const PUT_WINDOW_MS = 5 * 60_000;
export const UPLOAD_LIFETIME_MS = 60 * 60_000;
/** A hosted-page upload (the page's own slot, or a form's file kept for a second attempt). */
export const HOSTED_UPLOAD_LIFETIME_MS = 20 * 60_000;

/** Bytes that uploads not yet spent nor expired may reserve (issue 11.4). */
export interface UploadQuotas {
  /** An account's API uploads. */
  accountBytes: number;
  /** An account's hosted-page uploads, apart from the API's so the page never starves it. */
  hostedAccountBytes: number;
  /** Hosted-page uploads of one client-address bucket (an IPv4 address, an IPv6 /64). */
  addressBytes: number;
}

export function defaultUploadQuotas(limits: CvLimits): UploadQuotas {
  return {
    accountBytes: 100 * limits.maxBytes,
    hostedAccountBytes: 30 * limits.maxBytes,
    addressBytes: 3 * limits.maxBytes,
  };
}

export function createUploadService(deps: {
  db: Db;
  clock: Clock;
  files: CvFileStore;
  inspector: CvInspector;
  limits: CvLimits;
  quotas?: UploadQuotas;
}) {
  const { db, clock, files, inspector, limits } = deps;
  const quotas = deps.quotas ?? defaultUploadQuotas(limits);

  /** Refuses (429) when `bytes` more would take the outstanding uploads over a quota. */
  async function room(
    by: { accountId: UploadHolder; hosted: boolean } | { bucket: string },
    bytes: number,
    quota: number,
    now: Date,
  ): Promise<void> {
    const outstanding = await uploadRepository.outstanding(db, by, now);
    if (outstanding.bytes + bytes <= quota) return;
    const wait = outstanding.firstExpiry
      ? Math.ceil((outstanding.firstExpiry.getTime() - now.getTime()) / 1000)
      : 60;
    const whose = 'bucket' in by ? 'this address' : 'this account';
    throw rateLimited(
      `Uploads of ${whose} not yet used hold ${outstanding.bytes} bytes, and at most ${quota} may be outstanding; use or let them expire first.`,
      Math.max(1, wait),
    );
  }

  /** Spends the upload and erases its file: a duplicate's or a refused CV's file is not kept. */
  async function discard(accountId: UploadHolder, uploadId: string): Promise<void> {
    await uploadRepository.markUsed(db, accountId, uploadId, clock.now());
    await files.delete(uploadId);
  }

  /** A refused CV: its upload is discarded, and the answer is 422 cv_rejected. */
  async function refuse(upload: UploadRow, reason: CvRejectReason, locale: ConsentLocale): Promise<never> {
    await discard(upload.account_id, upload.id);
    const message = rejectionMessage(reason, locale, limits);
    throw cvRejected(reason, { detail: message.detail, fix: message.fix });
  }

  return {
    /** `accountId` null: the platform's own upload (the console's, for a platform person's CV). */
    async create(
      accountId: UploadHolder,
      input: { bytes: number; fileName?: string },
      seal?: Seal<UploadSlot>,
      hosted?: { bucket: string },
    ): Promise<UploadSlot> {
      const now = clock.now();
      // api.md validates nothing here: a file over CV_MAX_BYTES is answered `too_large` when
      // named (the store keeps none of it). Only absurd sizes are refused at once (issue 25.5).
      if (input.bytes > MAX_UPLOAD_BYTES)
        throw badRequest(`bytes is larger than ${MAX_UPLOAD_BYTES}, which no CV can be.`, { field: 'bytes' });
      await this.ensureRoom(accountId, input.bytes, hosted);
      const id = newId('upl', now);
      const putExpiresAt = new Date(now.getTime() + PUT_WINDOW_MS);
      const uploadUrl = await files.presignPut(id, { bytes: input.bytes, expiresAt: putExpiresAt });
      return db.transaction().execute(async (trx) => {
        await uploadRepository.insert(trx, {
          id,
          account_id: accountId,
          bytes: input.bytes,
          file_name: input.fileName ?? null,
          created_at: now,
          put_expires_at: putExpiresAt,
          expires_at: new Date(now.getTime() + (hosted ? HOSTED_UPLOAD_LIFETIME_MS : UPLOAD_LIFETIME_MS)),
          received_at: null,
          used_at: null,
          hosted: hosted !== undefined,
          client_bucket: hosted?.bucket ?? null,
        });
        const slot = { uploadId: id, uploadUrl, expiresAt: putExpiresAt.toISOString() };
        await seal?.(trx, slot);
        return slot;
      });
    },

    /**
     * Refuses (429) when an upload of `bytes` would take the outstanding uploads over a quota: the
     * account's API quota, or for the hosted page the address's and the account's hosted quotas.
     */
    async ensureRoom(accountId: UploadHolder, bytes: number, hosted?: { bucket: string }): Promise<void> {
      const now = clock.now();
      if (!hosted) return room({ accountId, hosted: false }, bytes, quotas.accountBytes, now);
      await room({ bucket: hosted.bucket }, bytes, quotas.addressBytes, now);
      await room({ accountId, hosted: true }, bytes, quotas.hostedAccountBytes, now);
    },

    /**
     * An upload the service received itself (the hosted apply page's form): stored and marked
     * sent; it lives minutes, long enough to correct the form and send it again.
     */
    async createFromFile(
      accountId: string,
      filePath: string,
      bytes: number,
      fileName: string | null,
      hosted: { bucket: string },
    ): Promise<string> {
      await this.ensureRoom(accountId, bytes, hosted);
      const now = clock.now();
      const id = newId('upl', now);
      await uploadRepository.insert(db, {
        id,
        account_id: accountId,
        bytes,
        file_name: fileName,
        created_at: now,
        put_expires_at: now,
        expires_at: new Date(now.getTime() + HOSTED_UPLOAD_LIFETIME_MS),
        received_at: now,
        used_at: null,
        hosted: true,
        client_bucket: hosted.bucket,
      });
      await files.putFile(id, filePath);
      return id;
    },

    async markReceived(uploadId: string): Promise<void> {
      // A file PUT again after its upload was spent (a refused CV or a duplicate discarded it) is
      // never named and never swept: erase it at once rather than keep a CV nobody holds.
      if ((await uploadRepository.markReceived(db, uploadId, clock.now())).spent) {
        await files.delete(uploadId);
        throw conflict('This upload was already used; request a new upload to send another file.');
      }
    },

    /**
     * Check (5): the upload was issued to this account through this channel (issue 25.2: the hosted
     * form takes only its own uploads, the API only the API's; another's reads as never issued),
     * its file arrived whole, and it is neither spent nor past its lifetime. Reads only: the upload
     * is spent by the commit that accepts.
     */
    async usable(accountId: UploadHolder, uploadId: string, channel: UploadChannel): Promise<UploadRow> {
      const row = await uploadRepository.find(db, accountId, uploadId);
      if (!row || row.hosted !== (channel === 'hosted'))
        throw uploadInvalid('it was not issued to this account');
      if (row.used_at !== null) throw uploadInvalid('it has already been used');
      if (row.expires_at.getTime() <= clock.now().getTime())
        throw uploadInvalid('it expired (an upload id lives one hour)');
      const size = await files.size(uploadId);
      // Over CV_MAX_BYTES: the local store read and dropped the body (marked received), S3 holds it
      // whole; either way it was sent, and inspect answers too_large.
      if (row.bytes > limits.maxBytes) {
        if (row.received_at === null && size === null)
          throw uploadInvalid('no file was uploaded to its uploadUrl');
        return row;
      }
      if (size === null) throw uploadInvalid('no file was uploaded to its uploadUrl');
      if (size !== row.bytes) throw uploadInvalid('the stored file does not have the size declared');
      return row;
    },

    /**
     * Check (6): the PDF checks, out of process. A refused file is discarded with its upload.
     * `detail` is how much of the text a caller needs back (none, to accept an application).
     */
    async inspect(
      upload: UploadRow,
      locale: ConsentLocale,
      share: CheckShare = { lane: 'api', key: upload.account_id ?? 'platform' },
      detail: TextDetail = 'layout',
    ): Promise<Extract<CvVerdict, { ok: true }>> {
      if (upload.bytes > limits.maxBytes) return refuse(upload, 'too_large', locale);
      const verdict = await files
        .withLocalFile(upload.id, (path) => inspector.check(path, share, detail))
        .catch((error: unknown) => {
          // The file vanished between the size check and the read (swept, or spent by a racing request).
          if ((error as Error).name === 'BlobNotFoundError')
            throw uploadInvalid('its file is no longer stored');
          // The checker's children cannot start (or it is shutting down): the service's fault, and
          // a retry may find it back, so 503 rather than a 500 or a verdict on the file.
          // The same when the checker's queue, or this source's share of it, is full.
          if (error instanceof ParserPoolUnavailable)
            throw unavailable(
              'The CV checker is not available right now; retry the request shortly.',
              error.retryAfterSeconds,
            );
          throw error;
        });
      if (verdict.ok) return verdict;
      return refuse(upload, verdict.reason, locale);
    },

    /**
     * A file answer's check (§5): within the CV size limit and starting as a PDF does. Not the CV
     * checks: the file is kept as sent, never built into a CV. Reads only.
     */
    async looksLikePdf(upload: UploadRow): Promise<boolean> {
      if (upload.bytes > limits.maxBytes) return false;
      const head = await files
        .withLocalFile(upload.id, async (file) => {
          const handle = await fsp.open(file, 'r');
          try {
            const buffer = Buffer.alloc(5);
            await handle.read(buffer, 0, 5, 0);
            return buffer.toString('latin1');
          } finally {
            await handle.close();
          }
        })
        .catch(() => '');
      return head === '%PDF-';
    },

    discard,

    /** Erases a spent upload's file that nothing will read. */
    async eraseFile(uploadId: string): Promise<void> {
      await files.delete(uploadId);
    },

    /** Spends the upload inside the accepting transaction; false when another request spent it first. */
    async spend(trx: Db, accountId: UploadHolder, uploadId: string): Promise<boolean> {
      return uploadRepository.markUsed(trx, accountId, uploadId, clock.now());
    },

    /**
     * Deletes uploads never used within their lifetime, file and row; and the rows of uploads used
     * and past it (their files are what used them holds).
     */
    async sweep(): Promise<number> {
      const now = clock.now();
      const ids = await uploadRepository.expiredUnused(db, now, 500);
      for (const id of ids) {
        await files.delete(id);
        await uploadRepository.delete(db, id);
      }
      return ids.length + (await uploadRepository.deleteUsedExpired(db, now, 500));
    },
  };
}

export type UploadService = ReturnType<typeof createUploadService>;
