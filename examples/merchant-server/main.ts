/**
 * `npm run example:merchant` beside `npm start`: the example shop, wired to the sandbox.
 * SVC_SECRET_KEY (the sandbox's "secret key (test)") is required. SVC_URL says where the sandbox is (default
 * http://localhost:$PORT, PORT being the sandbox's own variable, 4010 unless set); SHOP_PORT is the shop's port
 * (default 4020). The shop's webhook endpoint and secret are kept in $SANDBOX_DIR/example-shop-endpoint.json, so a
 * restart reuses the endpoint instead of registering another (deleting .sandbox/ forgets both, as it does the keys).
 */
import { join } from 'node:path';
import { createSvcClient } from '../../shared/client/index.ts';
import { registerWebhookEndpoint, startMerchantServer } from './merchant-server.ts';

const secretKey = process.env.SVC_SECRET_KEY;
if (!secretKey) {
  console.error('Set SVC_SECRET_KEY to the secret key (test) that npm start printed.');
  process.exit(2);
}
const svcUrl = process.env.SVC_URL ?? `http://localhost:${process.env.PORT ?? 4010}`;
const svc = createSvcClient({ baseUrl: svcUrl, secretKey });
let secret = '';
const shop = await startMerchantServer({ svc, webhookSecret: () => secret, port: Number(process.env.SHOP_PORT ?? 4020), returnUrl: 'https://shop.example/thanks' });
try {
  secret = await registerWebhookEndpoint(svc, shop.url, { stateFile: join(process.env.SANDBOX_DIR ?? '.sandbox', 'example-shop-endpoint.json') });
} catch (error) {
  const cause = (error as { cause?: { code?: string } }).cause;
  const reason = cause?.code === 'ECONNREFUSED' ? `nothing answers at ${svcUrl}: start the sandbox with npm start, or set SVC_URL (or PORT) to where it runs` : (error as Error).message;
  console.error(`The example shop cannot register its webhook endpoint: ${reason}.`);
  await shop.close();
  process.exit(1);
}
console.log(`Example shop on ${shop.url} (sandbox ${svcUrl})
  Pay an order:   curl -si -X POST "${shop.url}/orders/42/pay?amountMinor=1050"   (open the Location in a browser)
  See the order:  curl -s ${shop.url}/orders/42`);
