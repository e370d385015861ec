import type { UploadSlot } from '../../contract/intake.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { emailKey } from '../../lib/email.ts';
import { newId } from '../../lib/ids.ts';
import type { TaskQueue } from '../../tasks/queue.ts';
import { type ConsentLocale, isConsentLocale } from '../consent/consent-texts.ts';
import type { VirtualCvBuilder } from '../cv/build-step.ts';
import { checkAndBuildCv } from '../cv/build-step.ts';
import { conflict, notFound, uploadInvalid } from '../errors.ts';
import type { CvFileStore, CvInspector } from '../ports.ts';
import { looksLikeCv } from './cv-likeness.ts';
import { notACv } from './not-a-cv.ts';
import { type PersonRow, personRepository } from './person-repository.ts';
import { uploadRepository } from './upload-repository.ts';
import type { UploadService } from './upload-service.ts';

/** The platform's share of the PDF checker: platform people's CVs queue as one source. */
const PLATFORM_SHARE = 'platform';

type Rejection = ReturnType<typeof notACv>;

/** What a platform person is in the console's answers: never the CV itself. */
export interface PersonView {
  id: string;
  email: string;
  name: string;
  openToMatches: boolean;
  cvStatus: PersonRow['cv_status'];
  createdAt: string;
  updatedAt: string;
  rejection?: Rejection;
}

/** Matching's side of a platform person (issue 19): in every account's pool while open and built. */
export interface PersonMatchPort {
  profileBuilt(
    trx: Db,
    subject: { kind: 'person'; id: string; accountId: null; email: string | null },
    document: unknown,
  ): Promise<void>;
  erase(trx: Db, kind: 'person', id: string): Promise<void>;
}

function view(row: PersonRow, rejection?: Rejection): PersonView {
  return {
    id: row.id,
    email: row.email_key,
    name: row.name,
    openToMatches: row.open_to_matches,
    cvStatus: row.cv_status,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    ...(rejection ? { rejection } : {}),
  };
}

const localeOf = (value: string): ConsentLocale => (isConsentLocale(value) ? value : 'en');

/**
 * Job seekers who hold a platform account: created by the console (console.md), optionally with a
 * CV built by the same checks and builder as an import's, and open to matches if they choose.
 */
export function createPersonService(deps: {
  db: Db;
  clock: Clock;
  uploads: UploadService;
  files: CvFileStore;
  inspector: CvInspector;
  build: VirtualCvBuilder;
  queue: TaskQueue;
  matches?: PersonMatchPort;
}) {
  const { db, clock, uploads, files, queue } = deps;

  /** In the caller's transaction: the person enters the pool (open, CV built) or leaves it. */
  async function placeInPool(trx: Db, row: PersonRow): Promise<void> {
    if (row.open_to_matches && row.cv_status === 'built') {
      const document = await personRepository.cv(trx, row.id);
      if (document) {
        await deps.matches?.profileBuilt(
          trx,
          { kind: 'person', id: row.id, accountId: null, email: row.email_key },
          document,
        );
        return;
      }
    }
    await deps.matches?.erase(trx, 'person', row.id);
  }

  async function found(id: string): Promise<PersonRow> {
    const row = await personRepository.find(db, id);
    if (!row) throw notFound('Person');
    return row;
  }

  return {
    /** The platform's own upload slot for a person's CV: the usual presigned PUT, held by no account. */
    async uploadSlot(input: { bytes: number; fileName?: string }): Promise<UploadSlot> {
      return uploads.create(null, input);
    },

    /**
     * POST /console/v1/people. With `cv`, the upload is checked as an import's is (400
     * `upload_invalid`, 422 `cv_rejected`, nothing written); a file that passes but does not read
     * as a CV is spent and the person is created without a CV (`rejection`, as an import's).
     */
    async add(input: {
      email: string;
      name: string;
      openToMatches?: boolean;
      locale?: ConsentLocale;
      cv?: { uploadId: string };
    }): Promise<PersonView> {
      const key = emailKey(input.email);
      const taken = () => conflict('A person with this email already holds an account.');
      if (await personRepository.findByAddress(db, key)) throw taken();
      const locale = input.locale ?? 'en';
      let rejection: Rejection | undefined;
      let uploadId: string | null = null;
      if (input.cv) {
        const upload = await uploads.usable(null, input.cv.uploadId, 'api');
        const verdict = await uploads.inspect(upload, locale, { lane: 'api', key: PLATFORM_SHARE });
        if (looksLikeCv(verdict.text)) uploadId = upload.id;
        else rejection = notACv(locale);
      }
      const now = clock.now();
      const row = await db.transaction().execute(async (trx) => {
        if (input.cv && !(await uploads.spend(trx, null, input.cv.uploadId))) {
          return 'spent' as const;
        }
        const inserted = await personRepository.insert(trx, {
          id: newId('per', now),
          email_key: key,
          name: input.name,
          open_to_matches: input.openToMatches ?? false,
          cv_status: uploadId ? 'processing' : 'none',
          blob_key: uploadId,
          locale,
          at: now,
        });
        if (!inserted) throw taken();
        if (uploadId)
          await queue.enqueue(
            trx,
            'build-person-cv',
            { personId: inserted.id },
            { key: `build-person-cv:${inserted.id}` },
          );
        return inserted;
      });
      if (row === 'spent') throw uploadInvalid('another request used it meanwhile');
      if (rejection && input.cv) await uploads.eraseFile(input.cv.uploadId);
      return view(row, rejection);
    },

    async get(id: string): Promise<PersonView> {
      return view(await found(id));
    },

    /**
     * PATCH /console/v1/people/{personId} `{ openToMatches }`: the person's choice, effective at once
     * (closing it takes them out of the pool and every role's matches in this transaction).
     */
    async setOpenToMatches(id: string, open: boolean): Promise<PersonView> {
      const row = await db.transaction().execute(async (trx) => {
        const held = await personRepository.find(trx, id, true);
        if (!held) throw notFound('Person');
        if (held.open_to_matches === open) return held;
        const moved = (await personRepository.setOpen(trx, id, open, clock.now())) as PersonRow;
        await placeInPool(trx, moved);
        return moved;
      });
      return view(row);
    },

    /** DELETE /console/v1/people/{personId}/cv: the person deleted their CV; it leaves the pool at once. */
    async deleteCv(id: string): Promise<PersonView> {
      const result = await db.transaction().execute(async (trx) => {
        const held = await personRepository.find(trx, id, true);
        if (!held) throw notFound('Person');
        if (held.cv_status === 'none' || held.cv_status === 'deleted') return { row: held, blob: null };
        const moved = (await personRepository.moveCv(
          trx,
          id,
          [held.cv_status],
          'deleted',
          clock.now(),
          null,
        )) as PersonRow;
        await personRepository.deleteCv(trx, id);
        // The upload the file came in by (its id is the file's key) goes with it.
        if (held.blob_key) await uploadRepository.delete(trx, held.blob_key);
        await deps.matches?.erase(trx, 'person', id);
        return { row: moved, blob: held.blob_key };
      });
      if (result.blob) await files.delete(result.blob);
      return view(result.row);
    },

    /** Task: processing → built (and into the pool when open), or → failed when unreadable. */
    async buildCv(id: string, attempt: { last: boolean } = { last: true }): Promise<void> {
      const person = await personRepository.find(db, id);
      if (person?.cv_status !== 'processing') return;
      const built = await checkAndBuildCv(deps, {
        blobKey: person.blob_key,
        share: { lane: 'task', key: PLATFORM_SHARE },
        prior: { name: person.name, email: person.email_key, locale: localeOf(person.locale) },
        attempt,
      });
      if (built === null) {
        const failed = await personRepository.moveCv(db, id, ['processing'], 'failed', clock.now(), null);
        if (failed && person.blob_key) await files.delete(person.blob_key);
        return;
      }
      const { document } = built;
      const now = clock.now();
      await db.transaction().execute(async (trx) => {
        const moved = await personRepository.moveCv(trx, id, ['processing'], 'built', now);
        if (!moved) return;
        await personRepository.saveCv(trx, id, document, now);
        await placeInPool(trx, moved);
      });
    },

    /** The person's virtual CV, for an account that holds a match of them (match-service checks). */
    async cvOf(id: string): Promise<Record<string, unknown> | null> {
      return (await personRepository.cv(db, id)) ?? null;
    },
  };
}

export type PersonService = ReturnType<typeof createPersonService>;
