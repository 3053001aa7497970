import type { Role } from './domain/roles.ts';
import type { QueueName, WorkerTrigger } from './workers.ts';

/**
 * What a function needs beyond the table, declared on its manifest entry (shared/routes.ts, shared/workers.ts) so
 * the stack grants exactly that and no hand-kept list can drift from the code:
 * - secrets: opens or seals SecretBox ciphertexts other than card numbers (bank credentials, webhook secrets and
 *   credentials).
 * - cardNumbers: opens or seals card numbers (the vault's users only; KMS tells them apart by encryption context).
 * - fingerprints: computes card fingerprints (the card vault's keyed HMAC).
 * - gateways: calls a bank or card processor (GATEWAY_*_URL).
 * - userPool: signs dashboard users in or manages their logins (the Cognito user pool's admin actions it calls).
 * - schedules: creates and deletes one-time schedules (the session expiry's schedule group, infra/constructs/session-expiry.ts).
 * - outboundHttp: posts to merchants' URLs (webhooks; nothing to grant, the sender's own address checks apply).
 *
 * @example
 * const entry = { entry: 'functions/checkout/create-charge.ts', needs: ['secrets', 'fingerprints', 'gateways'] };
 */
export type FunctionNeed = 'secrets' | 'cardNumbers' | 'fingerprints' | 'gateways' | 'userPool' | 'schedules' | 'outboundHttp';

/** What of a manifest entry (a route's or a worker's) decides the parts its function gets. */
export interface FunctionDeclaration {
  needs?: readonly FunctionNeed[];
  /** A route a dashboard user may call verifies their token. */
  dashboard?: Role;
  /** Queues the function sends to; a queue's consumer uses its own queue too (to delay a retry). */
  sendsTo?: readonly QueueName[];
  trigger?: WorkerTrigger;
}

type NeedOf<D> = D extends { needs: readonly (infer N)[] } ? N : never;
type If<Condition, Group> = [Condition] extends [never] ? never : Group;

/**
 * The part groups (shared/deps.ts PartGroups) a manifest entry gives its function, derived from its declaration: its
 * handler gets these in `deps`, and its Lambda entry passes exactly their factories, so the two cannot drift.
 */
export type PartGroupsOf<D> =
  | If<Extract<NeedOf<D>, 'secrets' | 'cardNumbers' | 'fingerprints'>, 'crypto'>
  | If<Extract<NeedOf<D>, 'gateways'>, 'gateways'>
  | If<Extract<NeedOf<D>, 'userPool'>, 'userDirectory'>
  | If<Extract<NeedOf<D>, 'schedules'>, 'scheduler'>
  | If<Extract<NeedOf<D>, 'outboundHttp'>, 'webhookHttp'>
  | (D extends { dashboard: Role } ? 'userTokens' : never)
  | (D extends { sendsTo: readonly [QueueName, ...QueueName[]] } | { trigger: { kind: 'queue' } } ? 'queues' : never);
