import { sql } from 'kysely';
import type { Db } from '../../db/connect.ts';

/** The demographic answers, apart from the applications: written in bulk, read only as counts. */
export const demographicRepository = {
  async insert(
    db: Db,
    accountId: string,
    jobId: string,
    answers: readonly { questionId: string; values: readonly string[] }[],
  ): Promise<void> {
    const rows = answers.flatMap((a) =>
      a.values.map((value) => ({ account_id: accountId, job_id: jobId, question_id: a.questionId, value })),
    );
    if (rows.length > 0) await db.insertInto('demographic_answers').values(rows).execute();
  },

  async counts(
    db: Db,
    accountId: string,
    jobId: string,
  ): Promise<{ question_id: string; value: string; n: number }[]> {
    return db
      .selectFrom('demographic_answers')
      .select(['question_id', 'value', sql<number>`count(*)::int`.as('n')])
      .where('account_id', '=', accountId)
      .where('job_id', '=', jobId)
      .groupBy(['question_id', 'value'])
      .execute();
  },
};
