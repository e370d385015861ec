import { createAccount } from './console/accounts/create-account.ts';
import { getAccount } from './console/accounts/get-account.ts';
import { listAccounts } from './console/accounts/list-accounts.ts';
import { updateAccount } from './console/accounts/update-account.ts';
import { listAudit } from './console/audit/list-audit.ts';
import { accountSummary } from './console/insights/account-summary.ts';
import {
  addPerson,
  addSuppression,
  deletePersonCv,
  getPerson,
  jobDemographics,
  listJobApplications,
  platformUpload,
  updatePerson,
} from './console/intake/intake-routes.ts';
import {
  addApplicationNote,
  consoleGetApplication,
  downloadApplicationCv,
  moveApplicationStage,
  moveApplicationStages,
} from './console/intake/pipeline-routes.ts';
import {
  consolePublishJob,
  listAccountJobs,
  manageJob,
  promoteJob,
  unmanageJob,
} from './console/jobs/job-routes.ts';
import { createKey } from './console/keys/create-key.ts';
import { deleteTestData } from './console/keys/delete-test-data.ts';
import { listKeys } from './console/keys/list-keys.ts';
import { revokeKey } from './console/keys/revoke-key.ts';
import { consoleCandidateCv, consoleListMatches } from './console/matches/list-matches.ts';
import {
  dismissMatch,
  explainMatchRoute,
  listDismissedMatches,
  matchDecisionLog,
  restoreMatch,
} from './console/matches/match-decisions.ts';
import { listMail, listTasks, retryTask } from './console/ops/ops-routes.ts';
import { erasePerson, exportPerson, listErasures, markInformed } from './console/privacy/privacy-routes.ts';
import {
  billing,
  completeScreening,
  createTemplate,
  updateTemplate,
} from './console/screening/screening-routes.ts';
import { inviteUser } from './console/users/invite-user.ts';
import { listUsers } from './console/users/list-users.ts';
import { removeUser } from './console/users/remove-user.ts';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  retryDelivery,
} from './console/webhooks/webhook-routes.ts';
import { consoleEditorAsset } from './console-web/editor-asset.ts';
import { consoleWeb } from './console-web/index.ts';
import { probes } from './ops/probes.ts';
import { referencePage } from './ops/reference-page.ts';
import { applyPages } from './pages/apply-page.ts';
import { careersPage } from './pages/careers-page.ts';
import { claimPages } from './pages/claim-page.ts';
import { embedScripts } from './pages/embed-script.ts';
import { jobFeedJson } from './pages/feed-json.ts';
import { jobFeedPage } from './pages/feed-page.ts';
import { jobPage } from './pages/job-page.ts';
import { pageViewFlush } from './pages/page-views.ts';
import { sitemap } from './pages/sitemap.ts';
import type { Route } from './types.ts';
import { localUploads } from './uploads/receive-upload.ts';
import { createApplication } from './v1/applications/create-application.ts';
import { createCandidate } from './v1/applications/create-candidate.ts';
import { createUpload } from './v1/applications/create-upload.ts';
import { getApplication } from './v1/applications/get-application.ts';
import { getConsentText } from './v1/applications/get-consent-text.ts';
import { validateApplication } from './v1/applications/validate-application.ts';
import { listEvents } from './v1/events/list-events.ts';
import { closeJob } from './v1/jobs/close-job.ts';
import { createJob } from './v1/jobs/create-job.ts';
import { editJob } from './v1/jobs/edit-job.ts';
import { getJob } from './v1/jobs/get-job.ts';
import { listJobs } from './v1/jobs/list-jobs.ts';
import { listMatches } from './v1/jobs/list-matches.ts';
import { publishJob } from './v1/jobs/publish-job.ts';
import { triggerScreening } from './v1/screening/trigger-screening.ts';
import { testExpireJob, testManageJob, testUnmanageJob } from './v1/test/test-jobs.ts';
import { testCompleteScreening, testMoveCv } from './v1/test/test-moves.ts';

/**
 * Every route of the service, each registered with the HTTP context (src/http/context.ts) in this
 * order: the probes and documents, the local upload route, the /v1 and /console/v1 operations, the
 * hosted pages, the apply pages and the console's web pages.
 */
export const routes: Route[] = [
  probes,
  referencePage,
  localUploads,
  listJobs,
  getJob,
  createJob,
  editJob,
  publishJob,
  closeJob,
  getConsentText,
  createUpload,
  createApplication,
  validateApplication,
  getApplication,
  createCandidate,
  triggerScreening,
  testManageJob,
  testUnmanageJob,
  testExpireJob,
  testMoveCv,
  testCompleteScreening,
  createAccount,
  listAccounts,
  getAccount,
  updateAccount,
  createKey,
  listKeys,
  revokeKey,
  deleteTestData,
  listAccountJobs,
  consolePublishJob,
  promoteJob,
  manageJob,
  unmanageJob,
  listJobApplications,
  consoleGetApplication,
  moveApplicationStage,
  moveApplicationStages,
  addApplicationNote,
  downloadApplicationCv,
  jobDemographics,
  addPerson,
  getPerson,
  updatePerson,
  deletePersonCv,
  platformUpload,
  addSuppression,
  listMail,
  listTasks,
  retryTask,
  claimPages,
  jobPage,
  pageViewFlush,
  jobFeedPage,
  careersPage,
  embedScripts,
  jobFeedJson,
  createTemplate,
  updateTemplate,
  completeScreening,
  billing,
  listEvents,
  createWebhook,
  listWebhooks,
  deleteWebhook,
  listDeliveries,
  retryDelivery,
  listMatches,
  consoleListMatches,
  consoleCandidateCv,
  dismissMatch,
  restoreMatch,
  listDismissedMatches,
  matchDecisionLog,
  explainMatchRoute,
  inviteUser,
  listUsers,
  removeUser,
  listAudit,
  exportPerson,
  erasePerson,
  listErasures,
  markInformed,
  accountSummary,
  sitemap,
  applyPages,
  consoleEditorAsset,
  consoleWeb,
];
