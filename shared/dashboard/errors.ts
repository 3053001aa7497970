/**
 * The dashboard's API errors, rendered like every other in the one JSON error shape (shared/errors.ts).
 */
import { ApiError, ConflictError } from '../errors.ts';

/** A user token missing, malformed, expired, not ours, or of a user since removed: sign in again. */
export class InvalidTokenError extends ApiError {
  constructor(message = 'Invalid or expired sign-in. Sign in again.') {
    super(401, 'invalid_token', message);
    this.name = 'InvalidTokenError';
  }
}

/** An admin signed in without an authenticator app: only enrolling one (and signing out) is open until then. */
export class MfaRequiredError extends ApiError {
  constructor() {
    super(403, 'mfa_required', 'Admins must use two-step verification: add an authenticator app on the Security page first.');
    this.name = 'MfaRequiredError';
  }
}

/** Wrong password or no such account: the two are never told apart. */
export class InvalidCredentialsError extends ApiError {
  constructor() {
    super(401, 'invalid_credentials', 'Incorrect email or password.');
    this.name = 'InvalidCredentialsError';
  }
}

/** Too many failed sign-ins for this email: it is locked until the window ends. */
export class SignInLockedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'too_many_sign_in_attempts', 'Too many failed sign-in attempts. Try again later.', { headers: { 'Retry-After': String(retryAfterSeconds) } });
    this.name = 'SignInLockedError';
  }
}

/** Sign-in's own rate limit (per client address, per email) is used up for now. */
export class SignInRateLimitedError extends ApiError {
  constructor(retryAfterSeconds: number) {
    super(429, 'too_many_sign_in_attempts', 'Too many sign-in attempts. Try again in a minute.', { headers: { 'Retry-After': String(retryAfterSeconds) } });
    this.name = 'SignInRateLimitedError';
  }
}

/** The change would leave the merchant without an admin. */
export class LastAdminError extends ConflictError {
  constructor() {
    super('last_admin', 'The merchant must keep at least one admin: make another user admin first.');
    this.name = 'LastAdminError';
  }
}

/** The 409s of removing or demoting a user, as the OpenAPI document states them. */
export const LAST_ADMIN_ERRORS = 'last_admin: the change would leave the merchant without an admin. users_changed: other changes of its users kept racing this one; retry.';

/** The merchant's users kept changing under a removal or demotion, decided again each time: the caller retries. */
export class UsersChangedError extends ConflictError {
  constructor() {
    super('users_changed', "The merchant's users were being changed by other requests at the same moment. Read them again and retry.");
    this.name = 'UsersChangedError';
  }
}
