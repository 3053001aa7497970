/**
 * The language of the dashboard: Spanish by default, English when the user picks it, remembered in localStorage.
 * Every text comes from the dictionary of the current language (messages/es.ts, messages/en.ts).
 */
import { en } from './messages/en.ts';
import { es, type Dictionary } from './messages/es.ts';

export type Language = 'es' | 'en';
const STORAGE_KEY = 'svc.dashboard.language';
const DICTIONARIES: Record<Language, Dictionary> = { es, en };

let current: Language = localStorage.getItem(STORAGE_KEY) === 'en' ? 'en' : 'es';

/** The dictionary of the current language. */
export const t = (): Dictionary => DICTIONARIES[current];
export const language = (): Language => current;

export function setLanguage(next: Language): void {
  current = next;
  localStorage.setItem(STORAGE_KEY, next);
  document.documentElement.lang = next;
}

/**
 * The locale for numbers and dates: the browser's own when it speaks the chosen language (es-MX, en-GB), else
 * Venezuelan Spanish or American English.
 */
export function locale(): string {
  const preferred = (navigator.languages ?? [navigator.language]).find((l) => l.toLowerCase().startsWith(current));
  return preferred ?? (current === 'es' ? 'es-VE' : 'en-US');
}

document.documentElement.lang = current;
