import { toCardResource } from '../../shared/domain/stored-card.ts';
import * as manifest from '../../shared/route-manifest.ts';
import { userTokensFromEnvironment } from '../../shared/dashboard/user-tokens-from-environment.ts';
import { defineApiHandler } from '../../shared/http/api-handler.ts';
import { ListCardsQuerySchema } from '../../shared/schemas/card-schemas.ts';

/** GET /v1/cards: the merchant's cards in the key's mode, newest first; deleted cards never appear. */
export const { build, handler, schemas } = defineApiHandler(
  manifest.listCards,
  { query: ListCardsQuerySchema },
  async (req, deps) => {
    const cards = await deps.cards.list(req.auth.merchant.id, req.auth.mode, req.query.customerRef);
    return { statusCode: 200, body: cards.map((card) => toCardResource(card, req.now)) };
  },
  { userTokens: userTokensFromEnvironment },
);
