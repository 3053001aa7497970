import type { Merchant } from '../domain/merchant.ts';
import type { Session } from '../domain/session.ts';
import type { Mode } from '../domain/session-state.ts';
import type { Clock } from '../clock.ts';
import { AuthenticationError } from '../errors.ts';
import { hashApiKey, parseApiKey, type ApiKeyStore, type KeyKind } from '../store/api-key-store.ts';
import type { MerchantStore } from '../store/merchant-store.ts';
import { TtlCache } from './ttl-cache.ts';

export interface AuthContext {
  merchant: Merchant;
  mode: Mode;
  /** null on checkout routes called with the session reference alone. */
  keyKind: KeyKind | null;
  /** Checkout routes: the session whose reference authenticated the call, as read then (handlers start from it). */
  session?: Session;
}

/**
 * Resolves an API key to its merchant and mode. Both lookups are cached for a short time (30 s by default),
 * so a hot key costs no round trip; a revoked key stops working within that time.
 */
export class Authenticator {
  private readonly keys: TtlCache<{ merchantId: string; mode: Mode; kind: KeyKind; active: boolean } | null>;
  private readonly merchants: TtlCache<Merchant | null>;

  constructor(
    private readonly apiKeys: ApiKeyStore,
    private readonly merchantStore: MerchantStore,
    clock: Clock,
    ttlMs: number,
  ) {
    this.keys = new TtlCache(clock, ttlMs);
    this.merchants = new TtlCache(clock, ttlMs);
  }

  /** Throws AuthenticationError for a missing, malformed, unknown or revoked key, or one of another kind than allowed. */
  async authenticate(authorization: string | undefined, allowed: readonly KeyKind[]): Promise<AuthContext> {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
    const presented = match?.[1];
    const parsed = presented ? parseApiKey(presented) : null;
    if (!presented || !parsed) throw new AuthenticationError();
    if (!allowed.includes(parsed.kind)) {
      throw new AuthenticationError(
        parsed.kind === 'publishable'
          ? 'A publishable key (pk_...) cannot call this endpoint. Use your secret key (sk_...) from your server.'
          : 'This key cannot call this endpoint.',
      );
    }
    const hash = hashApiKey(presented);
    const key = await this.keys.getOrLoad(hash, async () => {
      const record = await this.apiKeys.get(hash);
      return record ? { merchantId: record.merchantId, mode: record.mode, kind: record.kind, active: record.status === 'active' } : null;
    });
    if (!key || !key.active) throw new AuthenticationError();
    const merchant = await this.merchant(key.merchantId);
    if (!merchant) throw new AuthenticationError();
    return { merchant, mode: key.mode, keyKind: key.kind };
  }

  /** The merchant, from the same short-lived cache as the keys' merchants. */
  merchant(merchantId: string): Promise<Merchant | null> {
    return this.merchants.getOrLoad(merchantId, () => this.merchantStore.get(merchantId));
  }
}
