/**
 * The answers of the MFA enrolment routes (docs/dashboard.md, "Two-step verification"). None is a 401: the page
 * treats every 401 as "sign in again", and a mistyped password or code must leave the user signed in, on the form.
 */
import { ApiError, ConflictError } from '../errors.ts';

/** The password re-entered to confirm a security change is not the account's. */
export class IncorrectPasswordError extends ApiError {
  constructor() {
    super(400, 'incorrect_password', 'The password is not this account\'s.', { field: 'password' });
    this.name = 'IncorrectPasswordError';
  }
}

/** The code is not the one the authenticator app shows now. */
export class IncorrectMfaCodeError extends ApiError {
  constructor() {
    super(400, 'incorrect_mfa_code', 'The code is wrong or expired: enter the code your authenticator app shows now.', { field: 'code' });
    this.name = 'IncorrectMfaCodeError';
  }
}

/**
 * The code is right but was already used (a code is taken once, RFC 6238 5.2): the app shows the same one until its
 * 30-second step ends, so the user waits for the next. Cognito answers this case apart too (ExpiredCodeException).
 */
export class MfaCodeUsedError extends ApiError {
  constructor() {
    super(400, 'mfa_code_already_used', 'This code was already used: wait for your authenticator app to show the next one (a new code every 30 seconds) and enter it.', { field: 'code' });
    this.name = 'MfaCodeUsedError';
  }
}

/** The enrolment session is not ours, of another user, or older than its lifetime: start again. */
export class MfaEnrolmentExpiredError extends ApiError {
  constructor() {
    super(400, 'mfa_enrolment_expired', 'This set-up expired or is not valid: start setting up two-step verification again.', { field: 'enrolmentSession' });
    this.name = 'MfaEnrolmentExpiredError';
  }
}

export class MfaAlreadyEnabledError extends ConflictError {
  constructor() {
    super('mfa_already_enabled', 'Two-step verification is already on: turn it off first to set up another app.');
    this.name = 'MfaAlreadyEnabledError';
  }
}

export class MfaNotEnabledError extends ConflictError {
  constructor() {
    super('mfa_not_enabled', 'Two-step verification is not on for this account.');
    this.name = 'MfaNotEnabledError';
  }
}
