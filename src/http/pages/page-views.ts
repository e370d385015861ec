import type { FastifyRequest } from 'fastify';
import type { PageKind } from '../../domain/insights/page-view-repository.ts';
import type { Route } from '../types.ts';

/**
 * User agents that announce a robot, a link previewer or a script: their fetches are no visits.
 * Not a defence (a robot can say it is a browser), only the honest ones kept out of the trend.
 */
const ROBOT =
  /bot\b|bot\/|crawl|spider|slurp|mediapartners|facebookexternalhit|embedly|preview|headlesschrome|lighthouse|curl\/|wget|python-|go-http-client|java\/|okhttp|node-fetch|axios|undici|libwww|httpclient|monitor|pingdom|uptime/i;

/** Whether this request is a person's view of the page: a GET (not HEAD), no robot, no prefetch. */
export function isPersonView(request: FastifyRequest): boolean {
  if (request.method !== 'GET') return false;
  const agent = request.headers['user-agent'];
  if (typeof agent !== 'string' || agent.trim() === '' || ROBOT.test(agent)) return false;
  const purpose = request.headers['sec-purpose'] ?? request.headers.purpose;
  return !(typeof purpose === 'string' && /prefetch|prerender/i.test(purpose));
}

/** Counts a served hosted page of `jobId` (nothing about the visitor is kept; never throws). */
export function countPageView(
  request: FastifyRequest,
  pageViews: { record(jobId: string, kind: PageKind): void },
  jobId: string,
  kind: PageKind,
): void {
  if (isPersonView(request)) pageViews.record(jobId, kind);
}

/** Writes the pending page views when the app closes, and logs a failed write with the app's log. */
export const pageViewFlush: Route = (app, { services: { pageViews } }) => {
  pageViews.logTo((error) => app.log.error({ err: error }, 'page views not written'));
  app.addHook('onClose', async () => {
    await pageViews.flush();
  });
};
