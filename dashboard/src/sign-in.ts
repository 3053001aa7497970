/** The sign-in page: email and password, then the MFA code when the API asks for one. */
import { PASSWORD_MIN_LENGTH, passwordProblem } from '../../shared/dashboard/password-policy.ts';
import { api, ApiError } from './api.ts';
import { h, replace } from './dom.ts';
import { t } from './i18n.ts';
import { saveSession, type SignedIn } from './session.ts';
import { errorMessage, field, notice, noticeRegion, whileBusy } from './ui.ts';

type SignInAnswer = SignedIn | { challenge: 'mfa' | 'new_password'; challengeSession: string };

/** The next step of a sign-in: the challenge's form, or the dashboard once signed in. */
function proceed(root: HTMLElement, answer: SignInAnswer, onSignedIn: () => void): void {
  if ('challenge' in answer) return (answer.challenge === 'mfa' ? renderMfa : renderNewPassword)(root, answer.challengeSession, onSignedIn);
  saveSession(answer);
  onSignedIn();
}

export function renderSignIn(root: HTMLElement, onSignedIn: () => void, message?: string): void {
  const email = h('input', { type: 'email', name: 'email', autocomplete: 'username', required: true, spellcheck: 'false' });
  const password = h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
  const alerts = noticeRegion();
  const submit = h('button', { type: 'submit', class: 'primary' }, t().signIn.submit);
  const form = h('form', { class: 'panel sign-in', novalidate: true }, h('h1', { tabindex: -1 }, t().signIn.title), alerts, field(t().signIn.email, email), field(t().signIn.password, password), submit);
  if (message) notice(alerts, 'info', message);

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!email.value.trim() || !password.value) return notice(alerts, 'error', t().signIn.missing);
    void whileBusy(submit, async () => {
      try {
        proceed(root, await api<SignInAnswer>('POST', '/v1/dashboard/auth/sign-in', { body: { email: email.value.trim(), password: password.value }, anonymous: true }), onSignedIn);
      } catch (error) {
        notice(alerts, 'error', error instanceof ApiError && (error.status === 401 || error.status === 400) ? t().signIn.invalid : errorMessage(error));
        password.value = '';
        password.focus();
      }
    });
  });
  replace(root, h('main', { class: 'sign-in-page', id: 'main' }, h('p', { class: 'brand-mark' }, 'svc'), form));
  document.title = t().signIn.title;
  email.focus();
}

function renderMfa(root: HTMLElement, challengeSession: string, onSignedIn: () => void): void {
  const code = h('input', { type: 'text', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', maxlength: 8, required: true });
  const alerts = noticeRegion();
  const submit = h('button', { type: 'submit', class: 'primary' }, t().signIn.mfaSubmit);
  const form = h('form', { class: 'panel sign-in', novalidate: true }, h('h1', { tabindex: -1 }, t().signIn.mfaTitle), h('p', {}, t().signIn.mfaText), alerts, field(t().signIn.mfaCode, code), submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void whileBusy(submit, async () => {
      try {
        saveSession(await api<SignedIn>('POST', '/v1/dashboard/auth/mfa', { body: { challengeSession, code: code.value.trim() }, anonymous: true }));
        onSignedIn();
      } catch (error) {
        notice(alerts, 'error', mfaCodeMessage(error));
        code.select();
      }
    });
  });
  replace(root, h('main', { class: 'sign-in-page', id: 'main' }, h('p', { class: 'brand-mark' }, 'svc'), form));
  code.focus();
}

/** A refused code in the user's words: already used (wait for the next one), or not correct. */
function mfaCodeMessage(error: unknown): string {
  if (!(error instanceof ApiError) || error.status >= 500 || error.status === 429 || error.status === 0) return errorMessage(error);
  return error.code === 'mfa_code_already_used' ? t().signIn.usedCode : t().signIn.invalidCode;
}

/** The first sign-in with a temporary password: the user chooses their own (the API checks the policy too). */
function renderNewPassword(root: HTMLElement, challengeSession: string, onSignedIn: () => void): void {
  const m = t().signIn;
  const password = h('input', { type: 'password', name: 'new-password', autocomplete: 'new-password', minlength: PASSWORD_MIN_LENGTH, required: true });
  const repeat = h('input', { type: 'password', name: 'repeat-password', autocomplete: 'new-password', required: true });
  const alerts = noticeRegion();
  const submit = h('button', { type: 'submit', class: 'primary' }, m.newPasswordSubmit);
  const form = h('form', { class: 'panel sign-in', novalidate: true }, h('h1', { tabindex: -1 }, m.newPasswordTitle), h('p', {}, m.newPasswordText), alerts, field(m.newPassword, password, m.passwordRule), field(m.repeatPassword, repeat), submit);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const chosen = password.value;
    // The policy the API applies (shared/dashboard/password-policy.ts), told in the page's language.
    if (passwordProblem(chosen)) return notice(alerts, 'error', m.passwordRule);
    if (chosen !== repeat.value) return notice(alerts, 'error', m.passwordsDiffer);
    void whileBusy(submit, async () => {
      try {
        // A user with two-step verification on is asked for a code next.
        proceed(root, await api<SignInAnswer>('POST', '/v1/dashboard/auth/new-password', { body: { challengeSession, newPassword: chosen }, anonymous: true }), onSignedIn);
      } catch (error) {
        // A challenge lives a few minutes: past it, the user signs in again with the temporary password.
        if (error instanceof ApiError && error.status === 401) return renderSignIn(root, onSignedIn, m.challengeExpired);
        // The API's refusal of the password names the policy: said in the page's language.
        notice(alerts, 'error', error instanceof ApiError && error.field === 'newPassword' ? m.passwordRule : errorMessage(error));
      }
    });
  });
  replace(root, h('main', { class: 'sign-in-page', id: 'main' }, h('p', { class: 'brand-mark' }, 'svc'), form));
  password.focus();
}
