/**
 * Account security, for every role: two-step verification (TOTP) of the signed-in user's own account. Turning it on
 * asks for the password again, then shows a QR code and the key as text, and takes the app's first code; turning it
 * off asks for the password and a current code (docs/dashboard.md, "Two-step verification").
 */
import QRCode from 'qrcode';
import { api, ApiError } from '../api.ts';
import { h, replace } from '../dom.ts';
import { t } from '../i18n.ts';
import { errorMessage, field, notice, noticeRegion, section, whileBusy } from '../ui.ts';

interface MfaState {
  enabled: boolean;
}
interface MfaEnrolment {
  secret: string;
  otpauthUri: string;
  enrolmentSession: string;
}

/** The user's words for the API's answers to a password or a code. */
function mfaErrorMessage(error: unknown): string {
  const s = t().security;
  const code = error instanceof ApiError ? error.code : undefined;
  const words: Record<string, string> = {
    incorrect_password: s.wrongPassword,
    incorrect_mfa_code: s.wrongCode,
    mfa_code_already_used: s.usedCode,
    mfa_enrolment_expired: s.expired,
    mfa_already_enabled: s.alreadyOn,
    mfa_not_enabled: s.alreadyOff,
  };
  return (code && words[code]) || errorMessage(error);
}

const passwordInput = () => h('input', { type: 'password', name: 'password', autocomplete: 'current-password', required: true });
const codeInput = () => h('input', { type: 'text', name: 'code', inputmode: 'numeric', autocomplete: 'one-time-code', pattern: '[0-9]{6}', maxlength: 6, required: true, spellcheck: 'false' });
/** The key in groups of four, as apps show it and people type it; the spaces are for reading only. */
const groupedKey = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** Dispatched on window once two-step verification is on: the shell lets an admin held on this page through. */
export const MFA_ENABLED_EVENT = 'svc:mfa-enabled';

export async function renderSecurity(view: HTMLElement): Promise<void> {
  const s = t().security;
  const region = noticeRegion();
  const body = h('div', {});

  const draw = async (message?: string) => {
    const { enabled } = await api<MfaState>('GET', '/v1/dashboard/me/mfa');
    const state = h('p', { class: 'mfa-state' }, h('span', { class: `badge ${enabled ? 'ok' : 'neutral'}` }, enabled ? s.on : s.off), ' ', enabled ? s.stateOn : s.stateOff);
    replace(body, state, enabled ? turnOffForm() : setUpButton());
    if (message) notice(region, 'ok', message);
  };

  /** Runs a form's call with its button busy; a refusal is said in the region and the form stays. */
  const submitting = (form: HTMLFormElement, submit: HTMLButtonElement, check: () => string | null, action: () => Promise<void>) => {
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      const problem = check();
      if (problem) return notice(region, 'error', problem);
      void whileBusy(submit, async () => {
        try {
          await action();
        } catch (error) {
          notice(region, 'error', mfaErrorMessage(error));
        }
      });
    });
  };
  const sixDigits = (input: HTMLInputElement) => (/^\d{6}$/.test(input.value.trim()) ? null : s.codeFormat);

  const setUpButton = () => {
    const start = h('button', { type: 'button', class: 'primary' }, s.setUp);
    start.addEventListener('click', () => {
      region.replaceChildren();
      const password = passwordInput();
      const submit = h('button', { type: 'submit', class: 'primary' }, s.continue);
      const form = h('form', { class: 'mfa-form', novalidate: true }, h('p', {}, s.passwordFirst), field(s.password, password), h('div', { class: 'actions' }, submit));
      submitting(form, submit, () => (password.value ? null : s.enterPassword), async () => {
        const enrolment = await api<MfaEnrolment>('POST', '/v1/dashboard/me/mfa/enrolment', { body: { password: password.value } });
        password.value = '';
        region.replaceChildren();
        await showEnrolment(enrolment);
      });
      replace(body, form);
      password.focus();
    });
    return h('div', { class: 'actions' }, start);
  };

  const showEnrolment = async (enrolment: MfaEnrolment) => {
    const qr = h('img', { class: 'mfa-qr', alt: s.qrAlt, width: 200, height: 200, src: await QRCode.toDataURL(enrolment.otpauthUri, { width: 200, margin: 2, errorCorrectionLevel: 'M' }) });
    const code = codeInput();
    const submit = h('button', { type: 'submit', class: 'primary' }, s.turnOn);
    const form = h('form', { class: 'mfa-form', novalidate: true }, h('h3', {}, s.confirmTitle), field(s.code, code), h('div', { class: 'actions' }, submit));
    submitting(form, submit, () => sixDigits(code), async () => {
      await api('POST', '/v1/dashboard/me/mfa/enrolment/confirm', { body: { enrolmentSession: enrolment.enrolmentSession, code: code.value.trim() } });
      await draw(s.turnedOn);
      window.dispatchEvent(new Event(MFA_ENABLED_EVENT));
    });
    replace(
      body,
      h('div', { class: 'mfa-step' }, h('h3', {}, s.scanTitle), qr),
      h('div', { class: 'mfa-step' }, h('h3', {}, s.manualTitle), h('p', {}, h('code', { class: 'secret-value mfa-key' }, groupedKey(enrolment.secret))), h('p', { class: 'hint' }, s.manualHint)),
      form,
    );
    code.focus();
  };

  const turnOffForm = () => {
    const password = passwordInput();
    const code = codeInput();
    const submit = h('button', { type: 'submit', class: 'danger' }, s.turnOffSubmit);
    const form = h('form', { class: 'mfa-form', novalidate: true }, h('h3', {}, s.turnOff), h('p', {}, s.turnOffText), field(s.password, password), field(s.code, code), h('div', { class: 'actions' }, submit));
    submitting(form, submit, () => (password.value ? sixDigits(code) : s.enterPassword), async () => {
      await api('POST', '/v1/dashboard/me/mfa/disable', { body: { password: password.value, code: code.value.trim() } });
      await draw(s.turnedOff);
    });
    return form;
  };

  // Read first, then show: the page appears whole.
  await draw();
  replace(view, h('h1', { tabindex: -1 }, s.title), section(s.mfa, h('p', {}, s.mfaIntro), region, body));
}
