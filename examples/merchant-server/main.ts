/**
 * `npm run example:merchant` beside `npm start`: the example shop on http://127.0.0.1:4020, wired to the sandbox.
 * SVC_URL (default http://localhost:4010) and SVC_SECRET_KEY (the sandbox's "secret key (test)") configure it.
 */
import { createSvcClient } from '../../shared/client/index.ts';
import { registerWebhookEndpoint, startMerchantServer } from './merchant-server.ts';

const secretKey = process.env.SVC_SECRET_KEY;
if (!secretKey) {
  console.error('Set SVC_SECRET_KEY to the secret key (test) that npm start printed.');
  process.exit(2);
}
const svc = createSvcClient({ baseUrl: process.env.SVC_URL ?? 'http://localhost:4010', secretKey });
let secret = '';
const shop = await startMerchantServer({ svc, webhookSecret: () => secret, port: Number(process.env.PORT ?? 4020), returnUrl: 'https://shop.example/thanks' });
secret = await registerWebhookEndpoint(svc, shop.url);
console.log(`Example shop on ${shop.url}
  Pay an order:   curl -si -X POST "${shop.url}/orders/42/pay?amountMinor=1050"   (open the Location in a browser)
  See the order:  curl -s ${shop.url}/orders/42`);
