// Screening: templates, the trigger and the stored rows.
import type { LightMyRequestResponse } from 'fastify';
import type { DbHandle } from '../../src/db/connect.ts';
import type { App } from '../../src/http/types.ts';
import { type ApiClient, consoleCall } from './accounts.ts';

/** POST /console/v1/accounts/{id}/screening-templates; answers the template (throws unless 201). */
export async function newTemplate(
  app: App,
  accountId: string,
  fields: { name?: string; priceCents?: number | null; currency?: 'AUD' | 'USD'; active?: boolean } = {},
): Promise<{
  id: string;
  name: string;
  priceCents: number | null;
  currency: 'AUD' | 'USD';
  active: boolean;
}> {
  const res = await consoleCall(app, 'POST', `/accounts/${accountId}/screening-templates`, {
    name: fields.name ?? 'Phone screen',
    priceCents: fields.priceCents === undefined ? 1500 : fields.priceCents,
    currency: fields.currency ?? 'AUD',
    ...(fields.active === undefined ? {} : { active: fields.active }),
  });
  if (res.statusCode !== 201) throw new Error(`template: ${res.statusCode} ${res.body}`);
  return res.json().template;
}

/** POST /v1/jobs/{jobId}/candidates/{candidateId}/screening. */
export function triggerScreening(
  api: ApiClient,
  jobId: string,
  candidateId: string,
  body: Record<string, unknown>,
  headers?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  return api.post(`/v1/jobs/${jobId}/candidates/${candidateId}/screening`, body, headers);
}

/** The screenings table's row, or undefined. */
export async function screeningRow(handle: DbHandle, screeningId: string) {
  return handle.db.selectFrom('screenings').selectAll().where('id', '=', screeningId).executeTakeFirst();
}

/** Every screening row of one account, oldest first. */
export async function screeningRows(handle: DbHandle, accountId: string) {
  return handle.db
    .selectFrom('screenings')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy('requested_at')
    .orderBy('id')
    .execute();
}
