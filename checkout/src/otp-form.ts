/**
 * The code step: the bank sent the buyer a code, or asks for a factor the buyer already has (Mercantil's clave
 * telefónica, nextAction.factor), and the step says which. Wrong entries have their own small limit per attempt,
 * separate from the session's failures, so the page counts them down from what the answers announced.
 */
import type { OtpFactor } from '../../shared/domain/otp-factor.ts';
import { byId, setBusy, setFieldError, show, showAlert } from './dom.ts';
import { FIELD_ERRORS, otpEntriesLeft, otpRefused, otpStanding, otpWording, type OtpWording } from './messages.ts';

/** What the page knows of the session's attempts: the bound it announced, and its own last-attempt warning. */
export interface AttemptsStanding {
  attemptsRemaining: number | null;
  lastAttempt: boolean;
}

export class OtpForm {
  readonly form = byId<HTMLFormElement>('otp-form');
  readonly back = byId<HTMLButtonElement>('otp-back');
  private readonly code = byId<HTMLInputElement>('otp-code');
  private readonly button = byId<HTMLButtonElement>('otp-button');
  private readonly alert = byId('otp-alert');
  private readonly cvv = byId<HTMLInputElement>('otp-cvv');
  private readonly account = byId<HTMLSelectElement>('otp-account');
  private readonly standing = byId('otp-standing');
  /** The bank takes the card again with the code (Mercantil debit): the CVV and the account are asked here too. */
  private asksCard = false;
  /** The transaction the code confirms; null when no OTP is awaited. */
  transactionReference: string | null = null;
  private entriesRemaining: number | null = null;
  private attempts: AttemptsStanding = { attemptsRemaining: null, lastAttempt: false };
  private factor: OtpFactor | null = null;
  private wording: OtpWording = otpWording(null);

  constructor() {
    for (const field of [this.code, this.cvv]) field.addEventListener('input', () => field.hasAttribute('aria-invalid') && setFieldError(field, null));
    this.account.addEventListener('change', () => setFieldError(this.account, null));
  }

  /** A fresh step for this transaction; entriesRemaining is unknown when no answer said it. */
  start(transactionReference: string, entriesRemaining: number | null, factor: OtpFactor | null): void {
    this.transactionReference = transactionReference;
    this.entriesRemaining = entriesRemaining;
    this.code.value = '';
    this.cvv.value = '';
    // No default: a savings account holder who misses the choice must not be sent as corriente.
    this.account.value = '';
    showAlert(this.alert, null);
    for (const field of [this.code, this.cvv, this.account]) setFieldError(field, null);
    this.describe(factor);
    this.renderStanding();
  }

  configure(asksCard: boolean): void {
    this.asksCard = asksCard;
    show(byId('otp-card'), asksCard);
  }

  /** The session's attempts as last read or answered: shown under the step, and whether a way back is offered. */
  setAttempts(attempts: AttemptsStanding): void {
    this.attempts = attempts;
    this.renderStanding();
  }

  /** What to send, or null after marking the fields. */
  read(): { code: string; cvv?: string; accountType?: string } | null {
    const code = this.code.value.replace(/\s/g, '');
    setFieldError(this.code, code ? null : this.wording.missing);
    if (!this.asksCard) {
      if (!code) this.code.focus();
      return code ? { code } : null;
    }
    const cvv = this.cvv.value.trim();
    const cvvOk = /^\d{3,4}$/.test(cvv);
    setFieldError(this.cvv, cvvOk ? null : FIELD_ERRORS.cvvInvalid);
    const accountType = this.account.value;
    setFieldError(this.account, accountType ? null : FIELD_ERRORS.accountTypeMissing);
    const first = !code ? this.code : !cvvOk ? this.cvv : !accountType ? this.account : null;
    if (first) {
      first.focus();
      return null;
    }
    return { code, cvv, accountType };
  }

  /** A wrong entry: `byBank` when the bank refused it, which does not say whether the code or the account was wrong. */
  wrongCode(byBank: boolean): void {
    if (this.entriesRemaining !== null) this.entriesRemaining = Math.max(1, this.entriesRemaining - 1);
    this.code.value = '';
    const message = byBank && this.factor ? otpRefused(this.entriesRemaining, this.wording.noun, this.factor.bankName) : otpEntriesLeft(this.entriesRemaining, this.wording.noun);
    this.renderStanding();
    showAlert(this.alert, message);
  }

  showProblem(message: string): void {
    showAlert(this.alert, message);
  }

  setBusy(busy: boolean): void {
    setBusy(this.button, busy);
    this.back.disabled = busy;
  }

  focus(): void {
    this.code.focus();
  }

  /** The step's words and the field's shape, from what the bank asks for. */
  private describe(factor: OtpFactor | null): void {
    this.factor = factor;
    this.wording = otpWording(factor);
    byId('otp-intro').textContent = this.wording.intro;
    byId('otp-code-label').textContent = this.wording.label;
    const help = byId('otp-code-help');
    help.textContent = this.wording.help ?? '';
    show(help, this.wording.help !== null);
    // A factor the buyer already has is no one-time code the browser could fill in from a message.
    this.code.autocomplete = factor ? 'off' : 'one-time-code';
    this.code.inputMode = !factor || factor.inputType === 'numeric' ? 'numeric' : 'text';
    this.code.maxLength = factor?.length ?? 12;
    this.code.type = factor?.kind === 'phone_key' ? 'password' : 'text';
  }

  private renderStanding(): void {
    const { attemptsRemaining, lastAttempt } = this.attempts;
    // attemptsRemaining counts this attempt too: what is left if it ends unconfirmed.
    const after = attemptsRemaining === null ? null : Math.max(0, attemptsRemaining - 1);
    const text = otpStanding(this.entriesRemaining, this.wording.noun, after, lastAttempt);
    this.standing.textContent = text;
    show(this.standing, text !== '');
    // Leaving the last attempt would close the session: no way back to offer then.
    show(byId('otp-back-block'), !(after === 0 || (after === null && lastAttempt)));
  }
}
