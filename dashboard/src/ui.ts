/**
 * The dashboard's repeated pieces: form fields, tables, status badges, notices, the confirm dialog and the
 * shown-once secret.
 */
import { ApiError } from './api.ts';
import { h, uniqueId, type Child } from './dom.ts';
import { t } from './i18n.ts';
import { navigate, routeHref } from './router.ts';
import { setMode } from './session.ts';

/** A labelled control; the hint is tied to it with aria-describedby. */
export function field(label: string, control: HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement, hint?: string): HTMLDivElement {
  control.id ||= uniqueId('field');
  const hintElement = hint ? h('p', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintElement) control.setAttribute('aria-describedby', hintElement.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintElement);
}

export function select(name: string, options: [value: string, label: string][], selected?: string): HTMLSelectElement {
  return h('select', { name }, ...options.map(([value, label]) => h('option', { value, selected: value === selected }, label)));
}

/** A table that scrolls sideways on a phone; the scrolling region is focusable so keyboard users can scroll it. */
export function table(caption: string, headers: string[], rows: Child[][], options: { captionHidden?: boolean } = {}): HTMLDivElement {
  return h(
    'div',
    { class: 'table-wrap', role: 'group', 'aria-label': caption, tabindex: 0 },
    h(
      'table',
      {},
      h('caption', { class: options.captionHidden ? 'visually-hidden' : null }, caption),
      h('thead', {}, h('tr', {}, ...headers.map((header) => h('th', { scope: 'col' }, header)))),
      h('tbody', {}, ...rows.map((cells) => h('tr', {}, ...cells.map((cell, i) => h('td', { 'data-label': headers[i] }, cell))))),
    ),
  );
}

const BADGE_TONES: Record<string, string> = {
  approved: 'ok', delivered: 'ok', succeeded: 'ok', completed: 'ok', active: 'ok', enabled: 'ok', on: 'ok',
  declined: 'bad', failed: 'bad', exhausted: 'bad', request_refused: 'bad', revoked: 'bad', deleted: 'bad', abandoned: 'bad',
  paid: 'ok', pending: 'warn', retrying: 'warn', scheduled: 'warn', open: 'warn', created: 'warn', otp_requested: 'warn', processing: 'warn',
};

export function badge(status: string, label = t().statuses[status] ?? status): HTMLSpanElement {
  return h('span', { class: `badge ${BADGE_TONES[status] ?? 'neutral'}` }, label);
}

export const testFlag = (): HTMLSpanElement => h('span', { class: 'badge test' }, t().payments.testFlag);

/** Input the page itself refuses, with the message for the user (in their language). */
export class InputError extends Error {
  override name = 'InputError';
}

/** The words for a failed call, in the user's language; a 400 adds the API's own (English) explanation. */
export function errorMessage(error: unknown): string {
  if (error instanceof InputError) return error.message;
  if (!(error instanceof ApiError)) return t().common.failed;
  if (error.status === 0) return t().common.offline;
  if (error.status === 403) return t().common.notAllowed;
  // The page is newer than the API it talks to (a route not deployed yet).
  if (error.code === 'route_not_found') return t().common.unavailable;
  if (error.status === 404) return t().common.notFound;
  if (error.status === 429) return t().common.tooMany;
  if (error.status >= 500) return t().common.failed;
  return error.message;
}

/** A live region for the result of an action: success as status, failure as an alert (read out at once). */
export function notice(region: HTMLElement, kind: 'ok' | 'info' | 'error', text: string): void {
  region.replaceChildren(h('p', { class: `notice ${kind}`, role: kind === 'error' ? 'alert' : 'status' }, text));
}

export function noticeRegion(): HTMLDivElement {
  return h('div', { class: 'notice-region' });
}

/** Runs `action` with the button disabled and marked busy, so a double click cannot send it twice. */
export async function whileBusy<T>(button: HTMLButtonElement, action: () => Promise<T>): Promise<T> {
  button.disabled = true;
  button.setAttribute('aria-busy', 'true');
  try {
    return await action();
  } finally {
    button.disabled = false;
    button.removeAttribute('aria-busy');
  }
}

/** Runs `action` with `button` busy; a failure is shown in `region` (the user's words, never a stack). */
export function runWithNotice(button: HTMLButtonElement, region: HTMLElement, action: () => Promise<void>): Promise<void> {
  return whileBusy(button, async () => {
    try {
      await action();
    } catch (error) {
      notice(region, 'error', errorMessage(error));
    }
  });
}

/** A change that cannot be taken back: asked first, then run as runWithNotice. */
export function confirmThenRun(button: HTMLButtonElement, question: string, confirmLabel: string, region: HTMLElement, action: () => Promise<void>): void {
  void confirmDialog(question, confirmLabel).then((confirmed) => (confirmed ? runWithNotice(button, region, action) : undefined));
}

/** A modal question; resolves true only when the user confirms. Focus goes back where it was. */
export function confirmDialog(question: string, confirmLabel: string): Promise<boolean> {
  const previous = document.activeElement as HTMLElement | null;
  const titleId = uniqueId('dialog');
  const dialog = h(
    'dialog',
    { class: 'dialog', 'aria-labelledby': titleId },
    h('p', { id: titleId }, question),
    h(
      'form',
      { method: 'dialog', class: 'actions' },
      h('button', { type: 'submit', value: 'cancel', class: 'secondary' }, t().common.cancel),
      h('button', { type: 'submit', value: 'confirm', class: 'danger' }, confirmLabel),
    ),
  );
  document.body.append(dialog);
  return new Promise((resolve) => {
    dialog.addEventListener('close', () => {
      dialog.remove();
      previous?.focus();
      resolve(dialog.returnValue === 'confirm');
    });
    dialog.showModal();
    // The safe choice has the focus: Enter on an accidental dialog cancels.
    dialog.querySelector<HTMLButtonElement>('button[value="cancel"]')?.focus();
  });
}

/** A secret the API shows once (new key, signing secret, temporary password), with a copy button. */
export function secretReveal(title: string, secret: string, warning = t().common.secretOnce): HTMLElement {
  const code = h('code', { class: 'secret-value' }, secret);
  const copy = h('button', { type: 'button', class: 'secondary' }, t().common.copy);
  const copied = h('span', { class: 'hint', role: 'status' });
  copy.addEventListener('click', () => {
    void navigator.clipboard?.writeText(secret).then(() => (copied.textContent = t().common.copied)).catch(() => selectText(code));
  });
  const titleId = uniqueId('secret');
  return h('section', { class: 'secret', 'aria-labelledby': titleId, tabindex: -1 }, h('h3', { id: titleId }, title), h('p', { class: 'warning' }, warning), h('div', { class: 'secret-row' }, code, copy), copied);
}

/** Where the clipboard is refused (plain HTTP on another host), the secret is selected for Ctrl+C. */
function selectText(element: HTMLElement): void {
  const range = document.createRange();
  range.selectNodeContents(element);
  const selection = getSelection();
  selection?.removeAllRanges();
  selection?.addRange(range);
}

/** A page's section: a heading and its content. */
export function section(title: string, ...children: Child[]): HTMLElement {
  const id = uniqueId('section');
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h2', { id }, title), ...children);
}

export const emptyState = (text: string): HTMLParagraphElement => h('p', { class: 'empty' }, text);

/**
 * No live payments (a sandbox merchant's are all test ones): `lead` says so, then where the test ones are, and a
 * button that shows them. The overview counts live payments only, so the button opens the payments list.
 */
export function noLiveDataState(lead = t().shell.noLiveData): HTMLElement {
  const show = h('button', { type: 'button', class: 'secondary' }, t().shell.showTestData);
  show.addEventListener('click', () => {
    setMode('test');
    navigate(routeHref('payments'));
  });
  return h('div', { class: 'empty-offer' }, h('p', { class: 'empty' }, h('strong', {}, lead), ' ', t().shell.testDataHint), show);
}
