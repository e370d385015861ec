// Jobs: bodies, shortcuts and the stored row.
import type { AuthoredJob } from '../../src/contract/job.ts';
import type { DbHandle } from '../../src/db/connect.ts';
import type { App } from '../../src/http/types.ts';
import { type ApiClient, consoleCall } from './accounts.ts';

/** A JobWrite body with everything a first publish needs; `overrides` replace or add fields. */
export function jobBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    title: 'Backend Engineer',
    category: 'engineering',
    description: '<p>Build the careers service.</p>',
    ...overrides,
  };
}

/** Creates a draft through POST /v1/jobs and answers the AuthoredJob. */
export async function createDraft(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
): Promise<AuthoredJob> {
  const res = await api.post('/v1/jobs', jobBody(overrides));
  if (res.statusCode !== 201) throw new Error(`create job: ${res.statusCode} ${res.body}`);
  return res.json().job;
}

/** Creates and publishes a job; answers the published AuthoredJob. */
export async function createPublished(
  api: ApiClient,
  overrides: Record<string, unknown> = {},
  publish: Record<string, unknown> = {},
): Promise<AuthoredJob> {
  const draft = await createDraft(api, overrides);
  const res = await api.post(`/v1/jobs/${draft.id}/publish`, publish);
  if (res.statusCode !== 200) throw new Error(`publish job: ${res.statusCode} ${res.body}`);
  return res.json().job;
}

/** How many jobs an account has in the database (drafts and closed ones included). */
export async function jobCount(handle: DbHandle, accountId: string): Promise<number> {
  const rows = await handle.db.selectFrom('jobs').select('id').where('account_id', '=', accountId).execute();
  return rows.length;
}

/** The jobs table's row for a job, read straight from the database. */
export async function jobRow(handle: DbHandle, jobId: string) {
  return handle.db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow();
}

/** POST /console/v1/accounts/{id}/jobs/{jobId}/manage (throws unless 200). */
export async function manageJob(app: App, accountId: string, jobId: string): Promise<void> {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/jobs/${jobId}/manage`);
  if (res.statusCode !== 200) throw new Error(`manage: ${res.statusCode} ${res.body}`);
}

/** A published job that the console made a managed ad. */
export async function managedJob(
  app: App,
  api: ApiClient,
  accountId: string,
  overrides: Record<string, unknown> = {},
): Promise<AuthoredJob> {
  const job = await createPublished(api, overrides);
  await manageJob(app, accountId, job.id);
  return job;
}
