/**
 * The payment form: a new card (number, expiry, CVV, holder, document) or a stored card (CVV, plus the document
 * when the session asks for it). It checks what the buyer typed and hands back the payment to send; it never
 * keeps card data beyond the inputs themselves.
 */
import { cardBrand } from '../../shared/domain/payment-data.ts';
import { cleanDocumentId, cleanName } from '../../shared/domain/prefill.ts';
import { brandLabel, brandName, cardNumberIssue, cvvIssue, digitsOf, documentIdIssue, expMonthIssue, expYearIssue, formatCardNumber, fullYear, holderNameIssue } from './card-input.ts';
import type { CheckoutSession, NewCardPayment, StoredCardPayment } from './checkout-api.ts';
import { byId, documentFields, setBusy, setFieldError, show, showAlert } from './dom.ts';
import { FIELD_ERRORS, FORM_HAS_ERRORS, PROCESSING_LABEL, storedCardLabel } from './messages.ts';

/** Where the API's 400 `field` points in this form. */
const FIELD_INPUTS: Record<string, string> = {
  'card.number': 'card-number',
  'card.expMonth': 'exp-month',
  'card.expYear': 'exp-year',
  'card.cvv': 'cvv',
  'card.holderName': 'holder-name',
  document: 'document-id',
  'document.type': 'document-id',
  'document.id': 'document-id',
};

export class PaymentForm {
  readonly form = byId<HTMLFormElement>('pay-form');
  private readonly number = byId<HTMLInputElement>('card-number');
  private readonly month = byId<HTMLInputElement>('exp-month');
  private readonly year = byId<HTMLInputElement>('exp-year');
  private readonly cvv = byId<HTMLInputElement>('cvv');
  private readonly holder = byId<HTMLInputElement>('holder-name');
  private readonly documentType = byId<HTMLSelectElement>('document-type');
  private readonly documentId = byId<HTMLInputElement>('document-id');
  private readonly selectedDocumentType = documentFields(this.documentType, this.documentId);
  private readonly button = byId<HTMLButtonElement>('pay-button');
  private readonly label = byId('pay-label');
  private readonly alert = byId('pay-alert');
  private storedCard = false;
  private documentRequired = false;
  private luhnCheck = true;
  private idleLabel = '';

  constructor() {
    this.number.addEventListener('input', () => this.onNumberInput());
    // A field the buyer corrects loses its error at once.
    for (const input of [this.number, this.month, this.year, this.cvv, this.holder, this.documentId]) {
      input.addEventListener('input', () => input.hasAttribute('aria-invalid') && setFieldError(input, null));
    }
  }

  /**
   * Shapes the form for the session, once. The prefill is a suggestion: it fills the fields, the buyer may
   * change them, and what is sent is what the fields hold.
   */
  configure(session: CheckoutSession, payLabel: string): void {
    this.storedCard = session.storedCard !== null;
    this.documentRequired = session.requiresDocument;
    this.luhnCheck = session.luhnCheck;
    show(byId('stored-card'), this.storedCard);
    show(byId('new-card'), !this.storedCard);
    show(byId('holder'), !this.storedCard);
    show(byId('document'), this.documentRequired);
    if (session.storedCard) byId('stored-card-label').textContent = storedCardLabel(brandLabel(session.storedCard.brand), session.storedCard.lastFour);
    const prefill = session.prefill;
    if (prefill?.cardholderName && !this.storedCard) this.holder.value = prefill.cardholderName;
    if (prefill?.documentType) this.documentType.value = prefill.documentType;
    if (prefill?.documentId) this.documentId.value = prefill.documentId;
    // The prefill may have changed the type: the keyboard follows.
    this.documentType.dispatchEvent(new Event('change'));
    this.idleLabel = payLabel;
    this.label.textContent = payLabel;
  }

  /** The payment to send, or null after marking the fields in error and moving the focus to the first one. */
  read(serverNow: number): NewCardPayment | StoredCardPayment | null {
    const issues: [HTMLInputElement, string | null][] = [];
    const brand = cardBrand(digitsOf(this.number.value));
    if (!this.storedCard) {
      issues.push([this.number, cardNumberIssue(this.number.value, this.luhnCheck)]);
      const monthIssue = expMonthIssue(this.month.value.trim());
      issues.push([this.month, monthIssue]);
      issues.push([this.year, expYearIssue(this.year.value.trim(), monthIssue ? '' : this.month.value.trim(), serverNow)]);
    }
    issues.push([this.cvv, cvvIssue(this.cvv.value.trim(), this.storedCard ? 'unknown' : brand)]);
    if (!this.storedCard) issues.push([this.holder, holderNameIssue(this.holder.value)]);
    if (this.documentRequired) issues.push([this.documentId, documentIdIssue(this.selectedDocumentType(), this.documentId.value)]);

    for (const [input, issue] of issues) setFieldError(input, issue);
    const first = issues.find(([, issue]) => issue !== null);
    if (first) {
      showAlert(this.alert, FORM_HAS_ERRORS);
      first[0].focus();
      return null;
    }
    showAlert(this.alert, null);
    const document = this.documentRequired ? { type: this.selectedDocumentType(), id: cleanDocumentId(this.documentId.value) } : undefined;
    const cvv = this.cvv.value.trim();
    if (this.storedCard) return { card: { cvv }, ...(document ? { document } : {}) };
    return {
      card: { number: digitsOf(this.number.value), expMonth: Number(this.month.value), expYear: fullYear(this.year.value.trim()), cvv, holderName: cleanName(this.holder.value) },
      ...(document ? { document } : {}),
    };
  }

  setBusy(busy: boolean): void {
    setBusy(this.button, busy);
    this.label.textContent = busy ? PROCESSING_LABEL : this.idleLabel;
  }

  /** An attempt that ended declined or failed: the CVV is asked again for the next one (it is never kept). */
  declined(reason: string): void {
    this.cvv.value = '';
    this.showProblem(reason);
  }

  /**
   * A request that got no result: the alert is focused and the field the API named is marked. The fields stay as
   * they are, so an attempt that got no answer can be sent again unchanged (with the same Idempotency-Key).
   */
  showProblem(message: string, field?: string): void {
    const inputId = field ? FIELD_INPUTS[field] : undefined;
    if (inputId) setFieldError(byId<HTMLInputElement>(inputId), FIELD_ERRORS_BY_INPUT[inputId] ?? message);
    showAlert(this.alert, message);
  }

  private onNumberInput(): void {
    const input = this.number;
    const atEnd = input.selectionStart === input.value.length;
    // Reformatting moves the caret to the end: only do it while the buyer types at the end.
    if (atEnd) input.value = formatCardNumber(input.value);
    byId('card-brand').textContent = brandName(input.value);
  }
}

const FIELD_ERRORS_BY_INPUT: Record<string, string> = {
  'card-number': FIELD_ERRORS.cardNumberInvalid,
  'exp-month': FIELD_ERRORS.expMonthInvalid,
  'exp-year': FIELD_ERRORS.expYearInvalid,
  cvv: FIELD_ERRORS.cvvInvalid,
  'holder-name': FIELD_ERRORS.holderNameMissing,
  'document-id': FIELD_ERRORS.documentIdInvalid,
};
