/** The few DOM operations the page repeats: look up by id, show or hide, mark a field invalid. */
import { DOCUMENT_TYPES, type DocumentType } from '../../shared/domain/prefill.ts';

export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id);
  if (!element) throw new Error(`The page has no #${id}.`);
  return element as T;
}

export function show(element: HTMLElement, visible = true): void {
  element.hidden = !visible;
}

/** The message sits in #<input id>-error, which the input names in aria-describedby. */
export function setFieldError(input: HTMLInputElement | HTMLSelectElement, message: string | null): void {
  const error = byId(`${input.id}-error`);
  error.textContent = message ?? '';
  show(error, message !== null);
  if (message === null) input.removeAttribute('aria-invalid');
  else input.setAttribute('aria-invalid', 'true');
}

/** An alert region: text set, shown, and focused so a screen reader and the keyboard both land on it. */
export function showAlert(alert: HTMLElement, message: string | null): void {
  alert.textContent = message ?? '';
  show(alert, message !== null);
  if (message !== null) alert.focus();
}

/** The submit button while a request is in flight: disabled, busy, spinner visible (CSS on aria-busy). */
export function setBusy(button: HTMLButtonElement, busy: boolean): void {
  button.disabled = busy;
  button.setAttribute('aria-busy', String(busy));
}

/**
 * A document type select and its number input: passports have letters, so the phone shows a full keyboard for
 * them and a numeric pad otherwise. Returns the selected type (V when the select holds none).
 */
export function documentFields(type: HTMLSelectElement, id: HTMLInputElement): () => DocumentType {
  const selected = (): DocumentType => ((DOCUMENT_TYPES as readonly string[]).includes(type.value) ? (type.value as DocumentType) : 'V');
  const fitKeyboard = () => (id.inputMode = selected() === 'P' ? 'text' : 'numeric');
  type.addEventListener('change', fitKeyboard);
  fitKeyboard();
  return selected;
}
