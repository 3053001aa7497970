/**
 * The webhook endpoint form, for a new endpoint and to edit one: URL, description, the events (the optional gateway
 * events in their own group) and the authentication with the fields its type needs. Stored credentials are never
 * shown: an empty credential field keeps the stored one.
 */
import { h, replace } from '../dom.ts';
import { EVENT_TYPES, OPTIONAL_EVENT_TYPES } from '../../../shared/domain/event-types.ts';
import { AUTH_TYPES, authFieldNames, CREDENTIAL_NAMES, type AuthType } from '../../../shared/webhooks/auth-fields.ts';
import { t } from '../i18n.ts';
import type { WebhookEndpoint } from '../types.ts';
import { field, select } from '../ui.ts';

export type EndpointChanges = Record<string, unknown>;

/** Fields the API never returns: the form leaves them empty and says whether one is stored. */
const SECRET_FIELDS = new Set<string>(CREDENTIAL_NAMES);

function eventBox(type: string, checked: boolean): HTMLLabelElement {
  return h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'enabledEvents', value: type, checked }), h('code', {}, type));
}

function stored(endpoint: WebhookEndpoint | null, name: string): boolean {
  if (!endpoint) return false;
  if (name === 'authToken') return endpoint.hasAuthToken;
  if (name === 'authUsername' || name === 'authPassword') return endpoint.hasBasicAuth;
  if (name === 'oauthClientSecret') return endpoint.hasOAuthClientSecret;
  return false;
}

/**
 * The form; `onSubmit` gets what to send (for an edit, only what changed; "" for a cleared description) and
 * resolves when done. `editable` false shows the settings with every control disabled (read-only roles).
 */
export function endpointForm(endpoint: WebhookEndpoint | null, editable: boolean, onSubmit: (changes: EndpointChanges, button: HTMLButtonElement) => void): HTMLFormElement {
  const w = t().webhooks;
  const url = h('input', { name: 'url', type: 'url', required: true, value: endpoint?.url ?? '', placeholder: 'https://', spellcheck: 'false', autocomplete: 'off' });
  const description = h('input', { name: 'description', type: 'text', maxlength: 500, value: endpoint?.description ?? '' });
  const ticked = new Set<string>(endpoint?.enabledEvents ?? []);
  const standard = EVENT_TYPES.filter((type) => !OPTIONAL_EVENT_TYPES.includes(type));
  const events = h(
    'fieldset',
    { class: 'field events' },
    h('legend', {}, w.events),
    h('p', { class: 'hint' }, w.eventsHint),
    h('div', { class: 'checks' }, ...standard.map((type) => eventBox(type, ticked.has(type)))),
    h('fieldset', { class: 'optional-events' }, h('legend', {}, w.optionalEvents), h('p', { class: 'hint' }, w.optionalHint), h('div', { class: 'checks' }, ...OPTIONAL_EVENT_TYPES.map((type) => eventBox(type, ticked.has(type))))),
  );
  const authType = select('authType', AUTH_TYPES.map((type): [string, string] => [type, w.authTypes[type] ?? type]), endpoint?.authType ?? 'none');
  const authFields = h('div', { class: 'auth-fields' });
  const currentValue = (name: string): string => (endpoint && !SECRET_FIELDS.has(name) ? ((endpoint as unknown as Record<string, string | null>)[name] ?? '') : '');
  const drawAuthFields = () => {
    const names = authFieldNames(authType.value as AuthType);
    replace(
      authFields,
      ...names.map((name) => {
        const secret = SECRET_FIELDS.has(name);
        const input = h('input', { name, type: name === 'authPassword' || name === 'oauthClientSecret' || name === 'authToken' ? 'password' : name === 'oauthTokenUrl' ? 'url' : 'text', value: currentValue(name), autocomplete: 'off', spellcheck: 'false' });
        const isStored = secret && stored(endpoint, name) && endpoint?.authType === authType.value;
        return field((w as unknown as Record<string, string>)[name] ?? name, input, isStored ? w.storedCredential : undefined);
      }),
    );
  };
  authType.addEventListener('change', drawAuthFields);
  drawAuthFields();

  const submit = h('button', { type: 'submit', class: 'primary' }, endpoint ? t().common.save : w.create);
  const controls = h(
    'fieldset',
    { class: 'plain', disabled: !editable },
    field(w.url, url),
    field(w.description, description),
    events,
    h('fieldset', { class: 'field' }, h('legend', {}, w.auth), field(w.authType, authType), authFields),
  );
  const form = h('form', { class: 'endpoint-form', novalidate: true }, controls, editable ? submit : null);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    if (!/^https?:\/\/\S+$/i.test(url.value.trim())) {
      url.setCustomValidity(w.urlInvalid);
      url.reportValidity();
      return;
    }
    const data = new FormData(form);
    const changes: EndpointChanges = {};
    const put = (name: string, value: unknown, before: unknown) => {
      if (!endpoint || JSON.stringify(value) !== JSON.stringify(before)) changes[name] = value;
    };
    put('url', url.value.trim(), endpoint?.url);
    const text = description.value.trim();
    if (text || endpoint?.description) put('description', text, endpoint?.description ?? '');
    put('enabledEvents', data.getAll('enabledEvents').map(String), endpoint?.enabledEvents ?? []);
    put('authType', authType.value, endpoint?.authType ?? 'none');
    for (const name of authFieldNames(authType.value as AuthType)) {
      const value = String(data.get(name) ?? '').trim();
      if (SECRET_FIELDS.has(name)) {
        if (value) changes[name] = value;
      } else if (value || endpoint) put(name, value, currentValue(name));
    }
    onSubmit(changes, submit);
  });
  url.addEventListener('input', () => url.setCustomValidity(''));
  return form;
}
