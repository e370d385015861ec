import fsp from 'node:fs/promises';
import { CV_STATUSES } from '../../contract/intake.ts';
import {
  APPLICATION_SORTS,
  APPLICATION_STAGES,
  type ApplicationSort,
  BULK_MOVE_MAX,
  NOTE_MAX_CHARS,
  type Stage,
} from '../../contract/pipeline.ts';
import type { Question } from '../../contract/questions.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { decodeCursor, encodeCursor } from '../../lib/cursor.ts';
import { newId } from '../../lib/ids.ts';
import type { Actor, AuditService } from '../console-users/audit-service.ts';
import { badRequest, notFound } from '../errors.ts';
import type { EventRecorder } from '../events/event-log.ts';
import { jobRepository } from '../jobs/job-repository.ts';
import type { CvFileStore } from '../ports.ts';
import { type AnswerChoice, answerChoices, answerProbe } from './answer-filter.ts';
import { type ApplicationRow, applicationRepository } from './application-repository.ts';
import { type ListPosition, type ListRow, type NoteRow, pipelineRepository } from './pipeline-repository.ts';

/** A query of the applications list as it arrives (console API query string or the page's). */
export interface ListQuery {
  q?: string;
  stage?: string;
  source?: string;
  cvStatus?: string;
  /** `questionId:value`: applications whose answer to that select or yes/no question has it. */
  answer?: string;
  sort?: string;
  cursor?: string;
  limit?: number;
}

export interface NoteView {
  id: string;
  text: string;
  author: { kind: 'user' | 'operator'; userId: string | null; email: string | null };
  createdAt: string;
}

export interface StageCounts {
  total: number;
  byStage: Record<Stage, number>;
}

const isStage = (value: string): value is Stage => (APPLICATION_STAGES as readonly string[]).includes(value);
const HELD: readonly ApplicationRow['cv_status'][] = ['processing', 'staged', 'claimed'];
/** The file is the account's to hand out while the CV is held and the row names one. */
const holdsFile = (row: Pick<ApplicationRow, 'blob_key' | 'cv_status'>) =>
  row.blob_key !== null && HELD.includes(row.cv_status);

function stageOf(value: string): Stage {
  if (!isStage(value))
    throw badRequest(`stage must be one of ${APPLICATION_STAGES.join(', ')}; "${value}" is not one.`, {
      field: 'stage',
    });
  return value;
}

/** A row of the list: what the console API answered before the pipeline, with stage and source. */
function listed(row: ApplicationRow) {
  return {
    applicationId: row.id,
    candidateId: row.id,
    jobId: row.job_id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    location: row.location,
    coverNote: row.cover_note,
    answers: row.answers ?? [],
    consent: row.consent_receipt,
    consentText: {
      consentTextId: row.consent_text_id,
      version: row.consent_version,
      locale: row.consent_locale,
      text: row.consent_text,
    },
    stage: row.stage,
    stageChangedAt: row.stage_changed_at?.toISOString() ?? null,
    source: row.source_channel,
    sourceDetail: row.source_detail,
    status: row.status,
    cvStatus: row.cv_status,
    ...(row.reason ? { reason: row.reason } : {}),
    /** Whether the account still holds the candidate's PDF (the download link). */
    cvFile: holdsFile(row),
    createdAt: row.created_at.toISOString(),
    claimedAt: row.claimed_at?.toISOString() ?? null,
  };
}
export type ListedApplication = ReturnType<typeof listed>;

function noteView(row: NoteRow): NoteView {
  return {
    id: row.id,
    text: row.text,
    author: { kind: row.author_kind, userId: row.author_id, email: row.author_email },
    createdAt: row.created_at.toISOString(),
  };
}

/** The cursor's position for this sort, or a 400 naming the field. */
function readCursor(cursor: string | undefined, sort: ApplicationSort): ListPosition | null {
  if (cursor === undefined) return null;
  const refuse = () => badRequest('cursor is not a cursor this API handed out.', { field: 'cursor' });
  const text = decodeCursor(cursor);
  if (text === null) throw refuse();
  try {
    const parsed = JSON.parse(text) as { s?: unknown; k?: unknown; i?: unknown };
    if (parsed.s !== sort || typeof parsed.i !== 'string') throw refuse();
    if (sort === 'name' ? typeof parsed.k !== 'string' : !Number.isSafeInteger(parsed.k)) throw refuse();
    return { key: parsed.k as string | number, id: parsed.i };
  } catch {
    throw refuse();
  }
}

function cursorAfter(row: ListRow, sort: ApplicationSort): string {
  const key = sort === 'name' ? row.name_key : row.created_at.getTime();
  return encodeCursor(JSON.stringify({ s: sort, k: key, i: row.id }));
}

/** The job's live questions (staged ones have no answers yet). */
const questionsOf = (job: { content: unknown }): Question[] =>
  ((job.content as Record<string, unknown> | null)?.questions ?? []) as Question[];

/** The list query read: each filter checked (400 naming the field). */
function readQuery(query: ListQuery, questions: readonly Question[]) {
  const sort = (query.sort ?? 'newest') as ApplicationSort;
  if (!APPLICATION_SORTS.includes(sort))
    throw badRequest(`sort must be one of ${APPLICATION_SORTS.join(', ')}.`, { field: 'sort' });
  if (query.stage !== undefined) stageOf(query.stage);
  const cvStatus = query.cvStatus as ApplicationRow['cv_status'] | undefined;
  if (cvStatus !== undefined && !CV_STATUSES.includes(cvStatus))
    throw badRequest(`cvStatus must be one of ${CV_STATUSES.join(', ')}.`, { field: 'cvStatus' });
  const limit = query.limit ?? 50;
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    throw badRequest('limit must be a whole number from 1 to 100.', { field: 'limit' });
  const q = query.q?.trim().toLowerCase() || null;
  return {
    sort,
    limit,
    after: readCursor(query.cursor, sort),
    filter: {
      q,
      stage: (query.stage as Stage | undefined) ?? null,
      source: query.source?.trim() || null,
      cvStatus: cvStatus ?? null,
      answer: query.answer ? answerProbe(questions, query.answer) : null,
    },
  };
}

/**
 * The recruiter's pipeline (extensions.md §4): the list, one application's details, stage moves
 * (audited, with the `application.stage_changed` event), notes and the CV download (audited).
 */
export function createPipelineService(deps: {
  db: Db;
  clock: Clock;
  events: EventRecorder;
  audit: Pick<AuditService, 'record'>;
  files: Pick<CvFileStore, 'withLocalFile'>;
}) {
  const { db, clock, events, audit, files } = deps;

  async function counts(accountId: string, jobId: string): Promise<StageCounts> {
    const byStage = Object.fromEntries(APPLICATION_STAGES.map((s) => [s, 0])) as Record<Stage, number>;
    let total = 0;
    for (const { stage, n } of await pipelineRepository.countByStage(db, accountId, jobId)) {
      byStage[stage] = n;
      total += n;
    }
    return { total, byStage };
  }

  async function own(accountId: string, applicationId: string): Promise<ApplicationRow> {
    const row = await applicationRepository.find(db, accountId, applicationId);
    if (!row) throw notFound('Application');
    return row;
  }

  /** Records the moves of one transaction: an audit entry and an event per application moved. */
  async function recordMoves(
    trx: Db,
    accountId: string,
    actor: Actor,
    moved: { id: string; job_id: string }[],
    stage: Stage,
  ): Promise<void> {
    for (const { id, job_id: jobId } of moved) {
      await audit.record(trx, accountId, actor, {
        action: 'application.stage_changed',
        target: id,
        detail: { jobId, stage },
      });
      await events.record(trx, accountId, {
        type: 'application.stage_changed',
        data: { applicationId: id, jobId, stage },
      });
    }
  }

  const service = {
    /** The job's applications, a page at a time, with the job's counts by stage. */
    async list(accountId: string, jobId: string, query: ListQuery) {
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job) throw notFound('Job');
      const { sort, limit, after, filter } = readQuery(query, questionsOf(job));
      const rows = await pipelineRepository.page(db, accountId, { jobId, ...filter }, sort, after, limit + 1);
      const page = rows.slice(0, limit);
      return {
        applications: page.map(listed),
        nextCursor: rows.length > limit ? cursorAfter(page.at(-1)!, sort) : null,
        counts: await counts(accountId, jobId),
      };
    },

    /** The answers the job's applications can be filtered by: the page's filter choices. */
    async answerChoices(accountId: string, jobId: string): Promise<AnswerChoice[]> {
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job) throw notFound('Job');
      return answerChoices(questionsOf(job));
    },

    /** The channels the job's applications came by: the page's filter choices. */
    async channels(accountId: string, jobId: string): Promise<string[]> {
      return pipelineRepository.channels(db, accountId, jobId);
    },

    /** One application as a recruiter reads it: details, answers, receipt, source, stage, notes. */
    async get(accountId: string, applicationId: string) {
      const row = await own(accountId, applicationId);
      const notes = await pipelineRepository.notes(db, row.id);
      return { ...listed(row), notes: notes.map(noteView) };
    },

    /** One application to `stage`: audited with the event, unless it is there already. */
    async moveStage(accountId: string, applicationId: string, stage: string, actor: Actor) {
      // The application first: another account's id is a 404 whatever the stage says.
      await own(accountId, applicationId);
      const to = stageOf(stage);
      await db.transaction().execute(async (trx) => {
        const row = await pipelineRepository.lockOne(trx, accountId, applicationId);
        if (!row) throw notFound('Application');
        const moved = await pipelineRepository.moveStage(trx, accountId, null, [row.id], to, clock.now());
        await recordMoves(trx, accountId, actor, moved, to);
      });
      return service.get(accountId, applicationId);
    },

    /**
     * Many of the job's applications to `stage` at once (≤ 100). Ids not of this job move nothing;
     * `moved` counts the applications whose stage changed.
     */
    async moveStages(
      accountId: string,
      jobId: string,
      applicationIds: readonly string[],
      stage: string,
      actor: Actor,
    ): Promise<{ moved: number }> {
      const job = await jobRepository.find(db, accountId, jobId);
      if (!job) throw notFound('Job');
      const to = stageOf(stage);
      const ids = [...new Set(applicationIds)];
      if (ids.length === 0)
        throw badRequest('Choose at least one application to move.', { field: 'applicationIds' });
      if (ids.length > BULK_MOVE_MAX)
        throw badRequest(`At most ${BULK_MOVE_MAX} applications move at once.`, { field: 'applicationIds' });
      return db.transaction().execute(async (trx) => {
        const moved = await pipelineRepository.moveStage(trx, accountId, jobId, ids, to, clock.now());
        await recordMoves(trx, accountId, actor, moved, to);
        return { moved: moved.length };
      });
    },

    /** A recruiter's note on the application (1 to 5,000 characters), with its author and time. */
    async addNote(accountId: string, applicationId: string, text: string, actor: Actor): Promise<NoteView> {
      const row = await own(accountId, applicationId);
      const trimmed = text.trim();
      if (trimmed.length === 0) throw badRequest('Write the note first.', { field: 'text' });
      if (text.length > NOTE_MAX_CHARS)
        throw badRequest(`A note holds at most ${NOTE_MAX_CHARS.toLocaleString('en')} characters.`, {
          field: 'text',
        });
      return db.transaction().execute(async (trx) => {
        const now = clock.now();
        const note = await pipelineRepository.insertNote(trx, {
          id: newId('note', now),
          account_id: accountId,
          application_id: row.id,
          author_kind: actor.kind,
          author_id: actor.kind === 'user' ? actor.userId : null,
          author_email: actor.kind === 'user' ? actor.email : null,
          text: trimmed,
          created_at: now,
        });
        await audit.record(trx, accountId, actor, {
          action: 'application.note_added',
          target: row.id,
          detail: { jobId: row.job_id, noteId: note.id },
        });
        return noteView(note);
      });
    },

    /**
     * The candidate's original PDF while the account holds it (404 otherwise); each download is
     * audited before the bytes are handed out.
     */
    async cvFile(
      accountId: string,
      applicationId: string,
      actor: Actor,
    ): Promise<{ bytes: Buffer; fileName: string }> {
      const row = await own(accountId, applicationId);
      if (!holdsFile(row)) throw notFound("The candidate's CV file");
      const key = row.blob_key!;
      let bytes: Buffer;
      try {
        bytes = await files.withLocalFile(key, (path) => fsp.readFile(path));
      } catch {
        throw notFound("The candidate's CV file");
      }
      await db.transaction().execute((trx) =>
        audit.record(trx, accountId, actor, {
          action: 'application.cv_downloaded',
          target: row.id,
          detail: { jobId: row.job_id },
        }),
      );
      return { bytes, fileName: `cv-${row.id}.pdf` };
    },
  };
  return service;
}

export type PipelineService = ReturnType<typeof createPipelineService>;
