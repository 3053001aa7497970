/**
 * The user directory: who may sign in, with which password, and the tokens it issues. One port, two adapters:
 * Amazon Cognito in AWS (cognito-user-directory.ts) and the sandbox's own (local-user-directory.ts). The table's
 * user items (shared/store/user-store.ts) hold merchant and role in both; the directory holds credentials only.
 */

/** What a verified token says: the user (usr_…, our id) and when the token stops being valid. */
export interface TokenClaims {
  userId: string;
  email: string;
  expiresAt: string;
}

/** A token, or a step the user must take first (a code from their authenticator app, a new password). */
export type SignInResult =
  | { kind: 'token'; token: string; expiresAt: string; userId: string }
  | { kind: 'challenge'; challenge: ChallengeName; challengeSession: string }
  | { kind: 'refused'; reason?: 'code_used' };

/** The steps a sign-in may ask for: an authenticator app's code, or a new password in place of a temporary one. */
export type ChallengeName = 'mfa' | 'new_password';

/** Verifies user tokens; every function whose routes accept one has it. */
export interface UserTokenVerifier {
  /** The claims of a valid token, or null for any token not issued by us, altered or expired. */
  verify(token: string): Promise<TokenClaims | null>;
}

export interface UserDirectory extends UserTokenVerifier {
  /** Email and password. `refused` for a wrong password and for an unknown email alike. */
  signIn(email: string, password: string): Promise<SignInResult>;
  /**
   * The user (usr_…) a challenge session of signIn was issued to, when it is well-formed and of `challenge`; null
   * otherwise. Read before the answer is checked, so the attempt counts against that user's email first.
   */
  challengeUser(challengeSession: string, challenge: ChallengeName): Promise<string | null>;
  /**
   * Answers a challenge of signIn with the code (mfa) or the new password (new_password). `refused` for a session of
   * another challenge than the route's, and for one already answered: a challenge session gives one token at most.
   * A right code already used is `refused` with reason `code_used`, and leaves the session open for the next code.
   */
  respond(challengeSession: string, challenge: ChallengeName, answer: string): Promise<SignInResult>;
  /**
   * Lets a new user sign in. The sandbox answers a temporary password (shown once; changed at first sign-in);
   * Cognito emails the invitation and answers none.
   */
  createLogin(user: { id: string; email: string }): Promise<{ temporaryPassword?: string }>;
  /**
   * What an invitation answers for an email that already signs in to another merchant's account: no login is made
   * (the email keeps signing in there only), and the answer looks like createLogin's, so it tells the inviter nothing.
   */
  placeholderLogin(): Promise<{ temporaryPassword?: string }>;
  /** At sign-out: revokes what the directory itself can (Cognito: refresh and access tokens; the API ends its session). */
  signOut(userId: string): Promise<void>;
  /** The user can no longer sign in (their table item is removed as well, so their tokens stop working). */
  removeLogin(userId: string): Promise<void>;
  /** Whether sign-in asks this user for an authenticator app's code. */
  mfaEnabled(userId: string): Promise<boolean>;
  /**
   * Starts adding an authenticator app, after checking the password again (a security change). Throws
   * IncorrectPasswordError or MfaAlreadyEnabledError (shared/dashboard/mfa-errors.ts).
   */
  startMfaEnrolment(user: LoginUser, password: string): Promise<MfaEnrolment>;
  /** Turns MFA on once the app shows a right code. Throws IncorrectMfaCodeError or MfaEnrolmentExpiredError. */
  confirmMfaEnrolment(user: LoginUser, enrolmentState: string, code: string): Promise<void>;
  /** Turns MFA off with the password and a current code. Throws IncorrectPasswordError, IncorrectMfaCodeError, MfaCodeUsedError or MfaNotEnabledError. */
  disableMfa(user: LoginUser, password: string, code: string): Promise<void>;
}

/** The signed-in user a security change is for. */
export interface LoginUser {
  id: string;
  email: string;
}

/**
 * A started enrolment: the base32 secret (typed in by hand), the otpauth:// URI (the QR code), and what the directory
 * needs back to finish it: Cognito's access token, or the sandbox's new secret. The API seals `enrolmentState`
 * before it leaves (shared/dashboard/mfa-enrolment-session.ts): the page holds it, never reads it.
 */
export interface MfaEnrolment {
  secret: string;
  otpauthUri: string;
  enrolmentState: string;
}
