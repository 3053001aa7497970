import type { Merchant } from '../domain/merchant.ts';
import type { Session } from '../domain/session.ts';
import type { Mode } from '../domain/session-state.ts';
import type { Clock } from '../clock.ts';
import type { DashboardUser } from '../domain/dashboard-user.ts';
import { InvalidTokenError } from '../dashboard/errors.ts';
import type { UserTokenVerifier } from '../dashboard/user-directory.ts';
import { currentSession, type SignedInSession } from '../dashboard/current-session.ts';
import type { DashboardSessionStore } from '../store/dashboard-session-store.ts';
import { AuthenticationError, ValidationError } from '../errors.ts';
import type { UserStore } from '../store/user-store.ts';
import { hashApiKey, parseApiKey, type ApiKeyRecord, type ApiKeyStore, type KeyKind } from '../store/api-key-store.ts';
import type { MerchantStore } from '../store/merchant-store.ts';
import { TtlCache } from './ttl-cache.ts';

export interface AuthContext {
  merchant: Merchant;
  mode: Mode;
  /** null on checkout routes called with the session reference alone. */
  keyKind: KeyKind | null;
  /** Checkout routes: the session whose reference authenticated the call, as read then (handlers start from it). */
  session?: Session;
  /** Dashboard calls: the signed-in user (keyKind is then null). */
  user?: DashboardUser;
  /** Dashboard calls: the session of the token (shared/dashboard/current-session.ts). */
  dashboardSession?: SignedInSession;
  /** API-key calls: which key (its id, the SHA-256 the table keys it by, and hint) and who minted it, for the audit log. */
  apiKey?: ApiKeyIdentity;
}

export type ApiKeyIdentity = Pick<ApiKeyRecord, 'hint' | 'createdBy'> & { id: string };

/** A JWT-shaped bearer value (three base64url parts): a dashboard user's token rather than an API key. */
export const isUserToken = (authorization: string | undefined): boolean => /^Bearer\s+[\w-]+\.[\w-]+\.[\w-]+\s*$/i.test(authorization ?? '');

/**
 * How long one instance may go on trusting what it read of a key: a key revoked or rolled anywhere (another Lambda
 * container, the dashboard, the admin CLI) is refused by every instance within this time. The key is read again
 * (strongly consistent) at most this often per instance: one GetItem per hot key per instance every 5 s.
 */
export const KEY_REVOCATION_BOUND_MS = 5_000;

/**
 * Resolves an API key to its merchant and mode. The key is cached for at most KEY_REVOCATION_BOUND_MS, the merchant
 * for `ttlMs` (30 s by default; KEY_CACHE_SECONDS), so a hot key costs few round trips and a revoked one stops
 * working within the bound; a shorter `ttlMs` (0 in some tests) shortens both.
 */
export class Authenticator {
  private readonly keys: TtlCache<{ merchantId: string; mode: Mode; kind: KeyKind; active: boolean; identity: ApiKeyIdentity } | null>;
  private readonly merchants: TtlCache<Merchant | null>;

  constructor(
    private readonly apiKeys: ApiKeyStore,
    private readonly merchantStore: MerchantStore,
    private readonly clock: Clock,
    ttlMs: number,
    /** Dashboard users: without them, every user token is refused. */
    private readonly userAccess?: { users: UserStore; tokens: UserTokenVerifier; sessions: DashboardSessionStore },
  ) {
    this.keys = new TtlCache(clock, Math.min(ttlMs, KEY_REVOCATION_BOUND_MS));
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
      return record
        ? { merchantId: record.merchantId, mode: record.mode, kind: record.kind, active: record.status === 'active', identity: { id: hash, hint: record.hint, ...(record.createdBy && { createdBy: record.createdBy }) } }
        : null;
    });
    if (!key || !key.active) throw new AuthenticationError();
    const merchant = await this.merchant(key.merchantId);
    if (!merchant) throw new AuthenticationError();
    return { merchant, mode: key.mode, keyKind: key.kind, apiKey: key.identity };
  }

  /**
   * Resolves a dashboard user's token to the user, their merchant and the mode the call asks for (`Svc-Mode`, live by
   * default). The user is read on every call, not cached: a removed user or a changed role counts at once; so is the
   * token's session (signed out, idle). Throws InvalidTokenError for a token that is not valid, whose user is gone or
   * whose session is over.
   */
  async authenticateUser(authorization: string | undefined, modeHeader: string | undefined): Promise<AuthContext & { user: DashboardUser; dashboardSession: SignedInSession }> {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    const claims = token && this.userAccess ? await this.userAccess.tokens.verify(token) : null;
    const user = claims ? await this.userAccess!.users.get(claims.userId) : null;
    const session = user && token ? await currentSession(this.userAccess!.sessions, token, user.id, this.clock.now()) : null;
    const merchant = session ? await this.merchant(user!.merchantId) : null;
    if (!user || !session || !merchant) throw new InvalidTokenError();
    const mode = (modeHeader ?? '').trim().toLowerCase() || 'live';
    if (mode !== 'test' && mode !== 'live') throw new ValidationError('The Svc-Mode header must be test or live.', 'Svc-Mode', 'parameter_invalid');
    return { merchant, mode, keyKind: null, user, dashboardSession: session };
  }

  /** The merchant, from the same short-lived cache as the keys' merchants. */
  merchant(merchantId: string): Promise<Merchant | null> {
    return this.merchants.getOrLoad(merchantId, () => this.merchantStore.get(merchantId));
  }
}
