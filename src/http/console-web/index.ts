import { AppError, errorForStatus, internal } from '../../domain/errors.ts';
import { acceptForms, FORM_LIMITS } from '../pages/form-body.ts';
import type { App, Route } from '../types.ts';
import { registerActivityPage } from './activity-page.ts';
import { registerApplicationsPage } from './applications-page.ts';
import { registerBillingPage } from './billing-page.ts';
import { registerHomePage } from './home-page.ts';
import { registerInvitation } from './invitation.ts';
import { registerJobPage } from './job-detail-page.ts';
import { registerJobsPage } from './jobs-page.ts';
import { registerKeysPage } from './keys-page.ts';
import { consoleError } from './layout.ts';
import { registerMatchesPages } from './match-cv-page.ts';
import { registerMatchListPages } from './matches-page.ts';
import { registerPasswordReset } from './password-reset.ts';
import { registerPrivacyPage } from './privacy-page.ts';
import { registerScreeningPage } from './screening-page.ts';
import { registerSecurityPage } from './security-page.ts';
import { registerSettingsPage } from './settings-page.ts';
import { copyScriptAsset } from './shown-once.ts';
import { registerSignIn } from './sign-in.ts';
import { registerSignInSteps } from './sign-in-steps.ts';
import { registerUsersPage } from './users-page.ts';
import { requireRight, type WebDeps } from './web.ts';
import { registerWebhooksPage } from './webhooks-page.ts';

/**
 * The recruiter console as web pages under /console (extensions.md §1): server-rendered forms that
 * post and redirect, signed in by a session cookie, each action checked for its CSRF token and the
 * role's right, each change made by the same domain services the API uses.
 */
export const consoleWeb: Route = (app, { services, rateLimits, clock, secureCookies, publicBaseUrl }) => {
  const deps: WebDeps = { services, rateLimits, clock, secureCookies, publicBaseUrl };
  app.register(async (web) => {
    acceptForms(web, FORM_LIMITS.console);
    web.setErrorHandler((error, request, reply) => {
      if (error instanceof AppError && error.status < 500) return consoleError(reply, null, error);
      const status = (error as { statusCode?: number }).statusCode;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        const unread = errorForStatus(status, 'The request could not be read. Go back and try again.');
        return consoleError(reply, null, unread);
      }
      request.log.error({ err: error }, 'console page failed');
      return consoleError(reply, null, internal('Something went wrong on our side. Try again in a moment.'));
    });
    web.addHook('onRoute', requireRight);
    const app = web as unknown as App;
    registerSignIn(app, deps);
    registerSignInSteps(app, deps);
    registerPasswordReset(app, deps);
    registerHomePage(app, deps);
    registerInvitation(app, deps);
    copyScriptAsset(app);
    registerJobsPage(app, deps);
    registerJobPage(app, deps);
    registerApplicationsPage(app, deps);
    registerMatchListPages(app, deps);
    registerMatchesPages(app, deps);
    registerScreeningPage(app, deps);
    registerBillingPage(app, deps);
    registerKeysPage(app, deps);
    registerSettingsPage(app, deps);
    registerPrivacyPage(app, deps);
    registerUsersPage(app, deps);
    registerActivityPage(app, deps);
    registerWebhooksPage(app, deps);
    registerSecurityPage(app, deps);
  });
};
