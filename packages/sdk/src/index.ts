export {
  type CareersClient,
  type CareersClientOptions,
  createCareersClient,
  type ListJobsQuery,
  type Locale,
  type WriteOptions,
} from './client.ts';
export {
  type ApiErrorCode,
  type ApiErrorObject,
  type ApiErrorOf,
  CareersApiError,
  CareersTransportError,
  retryAfterSeconds,
} from './errors.ts';
export type * from './schema.ts';
export { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './webhooks.ts';
