/**
 * The pago móvil C2P form: the buyer's bank, phone and cédula, "Solicitar clave" (their bank sends a payment key by
 * SMS), and the key, which pays. It checks what the buyer typed and hands back the payer to send; the key stays in
 * its input only, cleared after every attempt, as a CVV is.
 */
import { MOBILE_PREFIXES, payerDocumentIssue, VENEZUELAN_BANKS } from '../../shared/domain/pago-movil.ts';
import { cleanDocumentId } from '../../shared/domain/prefill.ts';
import type { CheckoutSession, PagoMovilPayer } from './checkout-api.ts';
import { byId, documentFields, setBusy, setFieldError, showAlert } from './dom.ts';
import { FIELD_ERRORS, FORM_HAS_ERRORS, KEY_SENT, keysLeft, PROCESSING_LABEL, REQUESTING_KEY } from './messages.ts';

/** Where the API's 400 `field` points in this form, and what the buyer reads under it. */
const FIELDS: Record<string, [inputId: string, message: string]> = {
  bankCode: ['c2p-bank', FIELD_ERRORS.bankMissing],
  phone: ['c2p-phone', FIELD_ERRORS.phoneInvalid],
  documentType: ['c2p-document-id', FIELD_ERRORS.payerDocumentInvalid],
  documentId: ['c2p-document-id', FIELD_ERRORS.payerDocumentInvalid],
  key: ['c2p-key', FIELD_ERRORS.paymentKeyInvalid],
};

export class C2pForm {
  readonly form = byId<HTMLFormElement>('c2p-form');
  readonly keyButton = byId<HTMLButtonElement>('c2p-key-button');
  private readonly bank = byId<HTMLSelectElement>('c2p-bank');
  private readonly prefix = byId<HTMLSelectElement>('c2p-phone-prefix');
  private readonly phone = byId<HTMLInputElement>('c2p-phone');
  private readonly documentType = byId<HTMLSelectElement>('c2p-document-type');
  private readonly documentId = byId<HTMLInputElement>('c2p-document-id');
  private readonly selectedDocumentType = documentFields(this.documentType, this.documentId);
  private readonly key = byId<HTMLInputElement>('c2p-key');
  private readonly keyStatus = byId('c2p-key-status');
  private readonly button = byId<HTMLButtonElement>('c2p-button');
  private readonly label = byId('c2p-label');
  private readonly alert = byId('c2p-alert');
  private idleLabel = '';

  constructor() {
    // Every bank of the network by name, its code shown: buyers know both (the code starts their account number).
    for (const [code, name] of Object.entries(VENEZUELAN_BANKS)) this.bank.add(new Option(`${name} (${code})`, code));
    for (const prefix of MOBILE_PREFIXES) this.prefix.add(new Option(prefix, prefix));
    for (const input of [this.bank, this.phone, this.documentId, this.key]) {
      input.addEventListener('input', () => input.hasAttribute('aria-invalid') && setFieldError(input, null));
    }
  }

  /** Shapes the form for the session, once: the pay label, and the prefill's document as a suggestion. */
  configure(session: CheckoutSession, payLabel: string): void {
    if (session.prefill?.documentType) this.documentType.value = session.prefill.documentType;
    if (session.prefill?.documentId) this.documentId.value = session.prefill.documentId;
    // The prefill may have changed the type: the keyboard follows.
    this.documentType.dispatchEvent(new Event('change'));
    this.idleLabel = payLabel;
    this.label.textContent = payLabel;
  }

  /** The payer as typed, or null after marking the fields in error (the key too when `withKey`) and focusing the first. */
  read(withKey: boolean): { payer: PagoMovilPayer; key: string } | null {
    const phoneDigits = this.phone.value.replace(/[\s.\-]/g, '');
    const type = this.selectedDocumentType();
    const documentId = cleanDocumentId(this.documentId.value);
    const issues: [HTMLInputElement | HTMLSelectElement, string | null][] = [
      [this.bank, this.bank.value ? null : FIELD_ERRORS.bankMissing],
      [this.phone, /^\d{7}$/.test(phoneDigits) ? null : FIELD_ERRORS.phoneInvalid],
      [this.documentId, payerDocumentIssue(type, documentId) === null ? null : type === 'P' ? FIELD_ERRORS.passportInvalid : FIELD_ERRORS.payerDocumentInvalid],
    ];
    if (withKey) issues.push([this.key, /^\d{8}$/.test(this.key.value.trim()) ? null : FIELD_ERRORS.paymentKeyInvalid]);
    for (const [input, issue] of issues) setFieldError(input, issue);
    const first = issues.find(([, issue]) => issue !== null);
    if (first) {
      showAlert(this.alert, FORM_HAS_ERRORS);
      first[0].focus();
      return null;
    }
    showAlert(this.alert, null);
    return { payer: { bankCode: this.bank.value, phone: `${this.prefix.value}${phoneDigits}`, documentType: type, documentId }, key: this.key.value.trim() };
  }

  setBusy(busy: boolean): void {
    setBusy(this.button, busy);
    this.keyButton.disabled = busy;
    this.label.textContent = busy ? PROCESSING_LABEL : this.idleLabel;
  }

  setRequestingKey(busy: boolean): void {
    setBusy(this.keyButton, busy);
    if (busy) this.keyStatus.textContent = REQUESTING_KEY;
  }

  /** The bank took the request: the buyer is told where the key comes and goes on to type it. */
  keySent(keysRemaining: number): void {
    showAlert(this.alert, null);
    this.keyStatus.textContent = `${KEY_SENT} ${keysLeft(keysRemaining)}`;
    this.key.focus();
  }

  /** The key was not sent (the bank's refusal, the limit): said in the alert, the status line cleared. */
  keyRefused(message: string, field?: string): void {
    this.keyStatus.textContent = '';
    this.showProblem(message, field);
  }

  /** An attempt that ended declined or failed: its key is spent, so the field is emptied for the next one. */
  declined(reason: string): void {
    this.key.value = '';
    this.keyStatus.textContent = '';
    this.showProblem(reason);
  }

  showProblem(message: string, field?: string): void {
    const named = field ? FIELDS[field] : undefined;
    if (named) setFieldError(byId<HTMLInputElement>(named[0]), named[1]);
    showAlert(this.alert, message);
  }
}
