/**
 * Who may see a merchant's resource (a session, transaction, card, webhook endpoint or delivery): the merchant that
 * owns it, in the mode it was made in. Anyone else's resource answers exactly as a missing one, 404 resource_missing,
 * so references cannot be probed across merchants or modes. Pure.
 *
 * @example
 * const card = requireOwned(await deps.cards.get(svcToken), req.auth, { resource: 'card', field: 'svcToken' });
 * if (!ownedBy(session, req.auth)) return null;
 */
import type { Mode } from '../domain/session-state.ts';
import { NotFoundError } from '../errors.ts';

/** The caller: a merchant in a mode, as an authenticated request's `auth` has them. */
export interface Owner {
  merchant: { id: string };
  mode: Mode;
}

/** A resource that belongs to one merchant and one mode. */
export interface Owned {
  merchantId: string;
  mode: Mode;
}

export interface OwnershipOptions {
  /** Any of the merchant's modes will do: expire answers the other mode's session with 409, not 404. */
  anyMode?: boolean;
}

/** Whether `owner` may see `resource`; a missing resource is nobody's. */
export function ownedBy<T extends Owned>(resource: T | null | undefined, owner: Owner, { anyMode = false }: OwnershipOptions = {}): resource is T {
  return !!resource && resource.merchantId === owner.merchant.id && (anyMode || resource.mode === owner.mode);
}

/** `resource` if `owner` may see it, else 404 resource_missing naming the resource and the parameter that named it. */
export function requireOwned<T extends Owned>(resource: T | null | undefined, owner: Owner, missing: { resource: string; field: string }, options?: OwnershipOptions): T {
  if (!ownedBy(resource, owner, options)) throw new NotFoundError(missing.resource, missing.field);
  return resource;
}
