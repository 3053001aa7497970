/**
 * The password policy, the same as the Cognito pool's (infra/constructs/user-pool.ts): at least 12 characters with a
 * lower-case letter, an upper-case letter, a digit and a symbol. Pure: no I/O.
 */
export const PASSWORD_MIN_LENGTH = 12;

/**
 * Why `password` is refused, or null when it is acceptable.
 *
 * @example
 * passwordProblem('short') // 'A password has at least 12 characters.'
 */
export function passwordProblem(password: string): string | null {
  if (password.length < PASSWORD_MIN_LENGTH) return `A password has at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (!/[a-z]/.test(password) || !/[A-Z]/.test(password) || !/[0-9]/.test(password) || !/[^A-Za-z0-9]/.test(password)) {
    return 'A password has a lower-case letter, an upper-case letter, a digit and a symbol.';
  }
  return null;
}
