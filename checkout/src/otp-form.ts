/**
 * The OTP step: the bank sent the buyer a code; wrong codes have their own small limit per attempt, separate from
 * the session's failures, so the page counts them down from what the charge answer announced.
 */
import { byId, setBusy, setFieldError, showAlert } from './dom.ts';
import { FIELD_ERRORS, otpEntriesLeft } from './messages.ts';

export class OtpForm {
  readonly form = byId<HTMLFormElement>('otp-form');
  private readonly code = byId<HTMLInputElement>('otp-code');
  private readonly button = byId<HTMLButtonElement>('otp-button');
  private readonly alert = byId('otp-alert');
  /** The transaction the code confirms; null when no OTP is awaited. */
  transactionReference: string | null = null;
  private entriesRemaining: number | null = null;

  constructor() {
    this.code.addEventListener('input', () => this.code.hasAttribute('aria-invalid') && setFieldError(this.code, null));
  }

  /** A fresh step for this transaction; entriesRemaining is unknown when the page opens on a session already waiting. */
  start(transactionReference: string, entriesRemaining: number | null): void {
    this.transactionReference = transactionReference;
    this.entriesRemaining = entriesRemaining;
    this.code.value = '';
    showAlert(this.alert, null);
    setFieldError(this.code, null);
  }

  /** The code to send, or null after marking the field. */
  read(): string | null {
    const code = this.code.value.replace(/\s/g, '');
    setFieldError(this.code, code ? null : FIELD_ERRORS.otpMissing);
    if (!code) {
      this.code.focus();
      return null;
    }
    return code;
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
