/** The few DOM operations the page repeats: look up by id, show or hide, mark a field invalid. */

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
