/** Which events an endpoint receives. Pure. */
import { OPTIONAL_EVENT_TYPES, type EventType } from '../domain/events.ts';

/**
 * An empty list means "everything but the optional gateway-specific events", which reach only endpoints that name
 * them. webhook.test is never fanned out: it goes to one endpoint through its own operation.
 */
export function isSubscribed(enabledEvents: readonly EventType[], type: EventType): boolean {
  if (type === 'webhook.test') return false;
  if (enabledEvents.length === 0) return !OPTIONAL_EVENT_TYPES.includes(type);
  return enabledEvents.includes(type);
}
