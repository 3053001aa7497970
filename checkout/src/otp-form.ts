/**
 * The OTP step: the bank sent the buyer a code; wrong codes have their own small limit per attempt, separate from
 * the session's failures, so the page counts them down from what the charge answer announced.
 */
import { byId, setBusy, setFieldError, show, showAlert } from './dom.ts';
import { FIELD_ERRORS, otpEntriesLeft } from './messages.ts';

export class OtpForm {
  readonly form = byId<HTMLFormElement>('otp-form');
  private readonly code = byId<HTMLInputElement>('otp-code');
  private readonly button = byId<HTMLButtonElement>('otp-button');
  private readonly alert = byId('otp-alert');
  private readonly cvv = byId<HTMLInputElement>('otp-cvv');
  private readonly account = byId<HTMLSelectElement>('otp-account');
  /** The bank takes the card again with the code (Mercantil debit): the CVV and the account are asked here too. */
  private asksCard = false;
  /** The transaction the code confirms; null when no OTP is awaited. */
  transactionReference: string | null = null;
  private entriesRemaining: number | null = null;

  constructor() {
    for (const field of [this.code, this.cvv]) field.addEventListener('input', () => field.hasAttribute('aria-invalid') && setFieldError(field, null));
  }

  /** A fresh step for this transaction; entriesRemaining is unknown when the page opens on a session already waiting. */
  start(transactionReference: string, entriesRemaining: number | null): void {
    this.transactionReference = transactionReference;
    this.entriesRemaining = entriesRemaining;
    this.code.value = '';
    this.cvv.value = '';
    showAlert(this.alert, null);
    setFieldError(this.code, null);
    setFieldError(this.cvv, null);
  }

  configure(asksCard: boolean): void {
    this.asksCard = asksCard;
    show(byId('otp-card'), asksCard);
  }

  /** What to send, or null after marking the fields. */
  read(): { code: string; cvv?: string; accountType?: string } | null {
    const code = this.code.value.replace(/\s/g, '');
    setFieldError(this.code, code ? null : FIELD_ERRORS.otpMissing);
    if (!code) {
      this.code.focus();
      return null;
    }
    if (!this.asksCard) return { code };
    const cvv = this.cvv.value.trim();
    const cvvOk = /^\d{3,4}$/.test(cvv);
    setFieldError(this.cvv, cvvOk ? null : FIELD_ERRORS.cvvInvalid);
    if (!cvvOk) {
      this.cvv.focus();
      return null;
    }
    return { code, cvv, accountType: this.account.value };
  }

  wrongCode(): void {
    if (this.entriesRemaining !== null) this.entriesRemaining = Math.max(1, this.entriesRemaining - 1);
    this.code.value = '';
    showAlert(this.alert, otpEntriesLeft(this.entriesRemaining));
    this.code.focus();
  }

  showProblem(message: string): void {
    showAlert(this.alert, message);
  }

  setBusy(busy: boolean): void {
    setBusy(this.button, busy);
  }

  focus(): void {
    this.code.focus();
  }
}
