import type { CoreDeps } from '../../shared/deps.ts';
import * as manifest from '../../shared/route-manifest.ts';
import type { AuthContext } from '../../shared/auth/authenticator.ts';
import { cardDeletedEvent, toCardResource, type StoredCard } from '../../shared/domain/stored-card.ts';
import { requireOwned } from '../../shared/auth/ownership.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { CardTokenParamsSchema } from '../../shared/schemas/card-schemas.ts';
import { policies } from '../../shared/retry/policies.ts';
import { retry } from '../../shared/retry/retry.ts';
import { ConditionFailedError } from '../../shared/store/conditions.ts';

/**
 * DELETE /v1/cards/{svcToken}: a logical delete (past transactions keep pointing at the record). The first one
 * writes status deleted and card.deleted in one transaction; a repeat answers the same card and writes nothing.
 */
export const { build, handler, schemas } = defineApiHandler(
  manifest.deleteCard,
  {
    params: CardTokenParamsSchema,
  },
  // A lost race against a simultaneous delete is decided again on a fresh read.
  (req, deps) =>
    retry(
      policies.versionRace,
      async () => {
        const card = await findCard(deps, req.auth, req.params.svcToken);
        if (card.status === 'deleted') return { statusCode: 200 as const, body: toCardResource(card, req.now) };
        const at = new Date(req.now).toISOString();
        const deleted: StoredCard = { ...card, status: 'deleted', deletedAt: at, version: card.version + 1 };
        await deps.cards.commit([deps.cards.updateItem(deleted, card.version), deps.cards.event(card.merchantId, cardDeletedEvent(deleted, at))]);
        return { statusCode: 200 as const, body: toCardResource(deleted, req.now) };
      },
      { isRetryable: (error) => error instanceof ConditionFailedError },
    ),
  { userTokens: userTokensFromEnvironment },
);

/** Another merchant's card, or the other mode's, is indistinguishable from a missing one. */
async function findCard(deps: CoreDeps, auth: AuthContext, svcToken: string): Promise<StoredCard> {
  return requireOwned(await deps.cards.get(svcToken), auth, { resource: 'card', field: 'svcToken' });
}
