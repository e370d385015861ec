import { createHash } from 'node:crypto';
import {
  type ConsoleRole,
  type ConsoleUser,
  PASSWORD_MAX,
  PASSWORD_MIN,
  type UserInvite,
} from '../../contract/console-users.ts';
import type { Db } from '../../db/connect.ts';
import type { Clock } from '../../lib/clock.ts';
import { emailKey } from '../../lib/email.ts';
import { newId, randomToken } from '../../lib/ids.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { mailHtml } from '../../mail/templates.ts';
import { accountRepository } from '../accounts/account-repository.ts';
import { badRequest, conflict, notFound } from '../errors.ts';
import type { Actor, AuditService } from './audit-service.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { securityRepository } from './security-repository.ts';
import { type ConsoleUserRow, userRepository } from './user-repository.ts';

export const INVITE_TTL_MS = 7 * 86_400_000;
/** Between the password and the second step (a code, or setting TOTP up): ten minutes. */
export const PENDING_TTL_MS = 10 * 60_000;
/** A session ends after this long without a request (extensions.md §1). */
export const SESSION_IDLE_MS = 12 * 3_600_000;
// Writing last_seen_at on every request would turn each page view into a write.
const TOUCH_INTERVAL_MS = 60_000;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Who is signed in on a session, and the session's CSRF token. */
export interface ConsoleSession {
  userId: string;
  accountId: string;
  email: string;
  role: ConsoleRole;
  csrf: string;
}

/**
 * The right password: a session, or (TOTP on, or required by the account and not set up yet) a
 * half-signed sign-in whose id the second step reads.
 */
export type SignInOutcome =
  | { kind: 'session'; id: string; csrf: string }
  | { kind: 'pending'; step: 'code' | 'enrol'; id: string };

export type InvitationState = { kind: 'open'; email: string } | { kind: 'gone' } | { kind: 'unknown' };

export function toUserView(row: ConsoleUserRow): ConsoleUser {
  return {
    id: row.id,
    email: row.email,
    role: row.role,
    createdAt: row.created_at.toISOString(),
    active: row.password_hash !== null,
  };
}

function checkPassword(password: string): void {
  if (password.length < PASSWORD_MIN || password.length > PASSWORD_MAX) {
    throw badRequest(`The password must be ${PASSWORD_MIN} to ${PASSWORD_MAX} characters long.`, {
      field: 'password',
    });
  }
}

function inviteMail(link: string, company: string) {
  const lines = [
    `You have been invited to the careers console of ${company}.`,
    'Open the link below to choose your password; it works once and expires in 7 days.',
  ];
  return {
    subject: `Your invitation to the ${company} careers console`,
    text: `${lines.join('\n\n')}\n\nSet my password: ${link}\n`,
    html: mailHtml('en', lines, { label: 'Set my password', link }),
  };
}

export function createConsoleUserService(deps: {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  publicBaseUrl: string;
  audit: AuditService;
  log?: { warn(message: string): void };
}) {
  const { db, clock, mailer, audit } = deps;

  async function newSession(trx: Db, userId: string, now: Date): Promise<{ id: string; csrf: string }> {
    const id = randomToken(32);
    const csrf = randomToken(32);
    await userRepository.insertSession(trx, {
      id_hash: sha256(id),
      user_id: userId,
      csrf_token: csrf,
      created_at: now,
      last_seen_at: now,
    });
    return { id, csrf };
  }

  /**
   * The password is right: a session, or the second step due (TOTP on: a code; the account
   * requires TOTP and the user has none: setting it up) as a half-signed sign-in.
   */
  async function afterPassword(
    trx: Db,
    user: { id: string; account_id: string; totp_secret: string | null },
    now: Date,
  ): Promise<SignInOutcome> {
    const step =
      user.totp_secret !== null
        ? 'code'
        : (await securityRepository.requiresTotp(trx, user.account_id))
          ? 'enrol'
          : null;
    if (step === null) return { kind: 'session', ...(await newSession(trx, user.id, now)) };
    const id = randomToken(32);
    await securityRepository.insertPending(trx, {
      id_hash: sha256(id),
      user_id: user.id,
      step,
      created_at: now,
      expires_at: new Date(now.getTime() + PENDING_TTL_MS),
    });
    return { kind: 'pending', step, id };
  }

  /** The account must keep a signed-up admin; the operator alone may take the last one away. */
  async function keepAnAdmin(trx: Db, user: ConsoleUserRow, actor: Actor): Promise<void> {
    if (actor.kind === 'operator' || user.role !== 'admin' || user.password_hash === null) return;
    if ((await userRepository.countAdmins(trx, user.account_id)) <= 1) {
      throw conflict('The account must keep at least one admin; make someone else admin first.', {
        field: 'role',
      });
    }
  }

  return {
    /** A new console user and a single-use link to set a password; the link also goes out by mail. */
    async invite(
      accountId: string,
      input: UserInvite,
      actor: Actor,
    ): Promise<{ user: ConsoleUser; inviteUrl: string }> {
      const email = emailKey(input.email);
      const now = clock.now();
      const token = randomToken(32);
      const tokenHash = sha256(token);
      const { row, company } = await db.transaction().execute(async (trx) => {
        const account = await accountRepository.find(trx, accountId);
        if (!account) throw notFound('Account');
        // Unique per account only (issue 25.4): another account's user of the address is never
        // looked at, so the answer says nothing about other accounts.
        if (await userRepository.byAccountEmail(trx, accountId, email)) {
          throw conflict('This email already belongs to a console user of this account.', { field: 'email' });
        }
        const inserted = await userRepository.insert(trx, {
          id: newId('usr', now),
          account_id: accountId,
          email,
          role: input.role,
          password_hash: null,
          created_at: now,
          updated_at: now,
        });
        await userRepository.insertInvitation(trx, {
          token_hash: tokenHash,
          user_id: inserted.id,
          expires_at: new Date(now.getTime() + INVITE_TTL_MS),
          created_at: now,
        });
        await audit.record(trx, accountId, actor, {
          action: 'user.invited',
          target: inserted.id,
          detail: { email, role: input.role },
        });
        return { row: inserted, company: account.company_name ?? account.name };
      });
      const inviteUrl = `${deps.publicBaseUrl}/console/invite/${token}`;
      try {
        await mailer.send({
          key: `console-invite:${tokenHash}`,
          subjectRef: `console-user:${row.id}`,
          to: email,
          locale: 'en',
          ...inviteMail(inviteUrl, company),
        });
      } catch {
        // The invitation stands: whoever invited holds the link and can pass it on.
        deps.log?.warn('an invitation mail could not be sent; the link was shown to the inviter');
      }
      return { user: toUserView(row), inviteUrl };
    },

    async list(accountId: string): Promise<ConsoleUser[]> {
      if (!(await accountRepository.find(db, accountId))) throw notFound('Account');
      return (await userRepository.list(db, accountId)).map(toUserView);
    },

    async changeRole(
      accountId: string,
      userId: string,
      role: ConsoleRole,
      actor: Actor,
    ): Promise<ConsoleUser> {
      return db.transaction().execute(async (trx) => {
        const user = await userRepository.find(trx, accountId, userId, true);
        if (!user) throw notFound('User');
        if (user.role === role) return toUserView(user);
        await keepAnAdmin(trx, user, actor);
        const updated = await userRepository.update(trx, userId, { role, updated_at: clock.now() });
        await audit.record(trx, accountId, actor, {
          action: 'user.role_changed',
          target: userId,
          detail: { email: user.email, before: user.role, after: role },
        });
        return toUserView(updated);
      });
    },

    /** Removes a user and ends every session it has. */
    async remove(accountId: string, userId: string, actor: Actor): Promise<void> {
      await db.transaction().execute(async (trx) => {
        const user = await userRepository.find(trx, accountId, userId, true);
        if (!user) throw notFound('User');
        await keepAnAdmin(trx, user, actor);
        await userRepository.delete(trx, userId);
        await audit.record(trx, accountId, actor, {
          action: 'user.removed',
          target: userId,
          detail: { email: user.email, role: user.role },
        });
      });
    },

    async openInvitation(token: string): Promise<InvitationState> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return { kind: 'unknown' };
      const invitation = await userRepository.invitation(db, sha256(token));
      if (!invitation) return { kind: 'unknown' };
      if (invitation.used_at !== null || invitation.expires_at.getTime() <= clock.now().getTime()) {
        return { kind: 'gone' };
      }
      return { kind: 'open', email: invitation.email };
    },

    /**
     * Sets the password the invitation asked for and signs the person in (a new session), or, when
     * the account requires TOTP, leads them to set it up first (a half-signed sign-in).
     */
    async acceptInvitation(token: string, password: string): Promise<SignInOutcome | null> {
      checkPassword(password);
      if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return null;
      const hash = await hashPassword(password);
      const tokenHash = sha256(token);
      return db.transaction().execute(async (trx) => {
        const invitation = await userRepository.invitation(trx, tokenHash);
        const now = clock.now();
        if (!invitation || !(await userRepository.useInvitation(trx, tokenHash, now))) return null;
        await userRepository.update(trx, invitation.user_id, { password_hash: hash, updated_at: now });
        // A password set anew ends whatever sessions the user had.
        await userRepository.deleteSessionsOf(trx, invitation.user_id);
        await audit.record(
          trx,
          invitation.account_id,
          { kind: 'user', userId: invitation.user_id, email: invitation.email },
          { action: 'user.joined', target: invitation.user_id },
        );
        return afterPassword(
          trx,
          { id: invitation.user_id, account_id: invitation.account_id, totp_secret: null },
          now,
        );
      });
    },

    /**
     * A new session when the password matches. An address may be a user of several accounts
     * (issue 25.4): the password picks the user. Every user of the address is tried, side by side
     * on the KDF's thread pool and without stopping at a match; the oldest that matches signs in.
     * An unknown email runs the same KDF as a wrong password and gets the same null, so neither
     * the answer nor its timing says which it was.
     */
    async signIn(email: string, password: string): Promise<SignInOutcome | null> {
      if (password.length > PASSWORD_MAX) return null;
      const users = await userRepository.signableByEmail(db, emailKey(email));
      const hashes = users.length === 0 ? [null] : users.map((user) => user.password_hash);
      const matches = await Promise.all(hashes.map((hash) => verifyPassword(password, hash)));
      const user = users[matches.indexOf(true)];
      if (!user) return null;
      return db.transaction().execute((trx) => afterPassword(trx, user, clock.now()));
    },

    /** A full session for a user past every step of sign-in (the second step's end). */
    startSession: newSession,

    /** Who is signed in on a session id; null once it ended (signed out, removed, 12 h idle). */
    async session(id: string): Promise<ConsoleSession | null> {
      if (!/^[A-Za-z0-9_-]{43}$/.test(id)) return null;
      const idHash = sha256(id);
      const row = await userRepository.session(db, idHash);
      if (!row) return null;
      const now = clock.now();
      const idle = now.getTime() - row.last_seen_at.getTime();
      if (idle >= SESSION_IDLE_MS) {
        await userRepository.deleteSession(db, idHash);
        return null;
      }
      if (idle > TOUCH_INTERVAL_MS) await userRepository.touchSession(db, idHash, now);
      return {
        userId: row.user_id,
        accountId: row.account_id,
        email: row.email,
        role: row.role,
        csrf: row.csrf_token,
      };
    },

    async signOut(id: string): Promise<void> {
      if (/^[A-Za-z0-9_-]{43}$/.test(id)) await userRepository.deleteSession(db, sha256(id));
    },

    /** Retention: sessions idle past their expiry. */
    async sweepSessions(): Promise<number> {
      return userRepository.deleteIdleSessions(db, new Date(clock.now().getTime() - SESSION_IDLE_MS));
    },
  };
}

export type ConsoleUserService = ReturnType<typeof createConsoleUserService>;
