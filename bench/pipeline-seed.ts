import type { Db } from '../src/db/connect.ts';
import { newId } from '../src/lib/ids.ts';

const FIRST = [
  'Ana',
  'Bruno',
  'Chen',
  'Dana',
  'Elif',
  'Farah',
  'Goran',
  'Hana',
  'Ivo',
  'Jun',
  'Kofi',
  'Lena',
];
const LAST = ['Silva', 'Okafor', 'Novak', 'Kim', 'Yilmaz', 'Haddad', 'Petrov', 'Sato', 'Costa', 'Nguyen'];
const STAGES = ['new', 'new', 'new', 'reviewing', 'shortlisted', 'interviewing', 'rejected'] as const;
const CHANNELS = ['job_page', 'job_page', 'integrator_site', 'api', 'linkedin'] as const;
const CV = ['claimed', 'claimed', 'staged', 'processing', 'failed'] as const;

/**
 * `n` applications on one job, written straight to the table (the pipeline reads them; the intake
 * path is measured elsewhere): names that repeat (ties on the name sort), instants shared by five
 * (ties on the date sorts), some erased (no name), stages, channels and CV states spread.
 */
export async function seedApplications(
  db: Db,
  where: { accountId: string; jobId: string },
  n: number,
  start = new Date('2026-01-01T00:00:00.000Z'),
): Promise<string[]> {
  const ids: string[] = [];
  for (let from = 0; from < n; from += 500) {
    const rows = [];
    for (let i = from; i < Math.min(n, from + 500); i++) {
      const at = new Date(start.getTime() + Math.floor(i / 5) * 60_000);
      const id = newId('app', at);
      ids.push(id);
      const erased = i % 97 === 13;
      const name = `${FIRST[i % FIRST.length]} ${LAST[Math.floor(i / FIRST.length) % LAST.length]}`;
      const email = `seed.${i}@example.com`;
      rows.push({
        id,
        account_id: where.accountId,
        job_id: where.jobId,
        email_key: erased ? null : email,
        name: erased ? null : name,
        email: erased ? null : email,
        phone: null,
        location: null,
        cover_note: null,
        answers: null,
        consent_receipt: null,
        consent_text_id: 'console_api_apply',
        consent_version: 'api_apply_v1',
        consent_locale: 'en',
        consent_text: null,
        lawful_basis: null,
        source: 'api',
        source_channel: CHANNELS[i % CHANNELS.length]!,
        stage: STAGES[i % STAGES.length]!,
        blob_key: null,
        status: 'received' as const,
        cv_status: erased ? ('deleted' as const) : CV[i % CV.length]!,
        reason: null,
        claimed_at: null,
        created_at: at,
        updated_at: at,
      });
    }
    await db.insertInto('applications').values(rows).execute();
  }
  return ids;
}
