/**
 * Issue 21, finding 10: sign-in has a rate limit of its own, per client address (the one CloudFront saw, passed on in
 * X-Svc-Client-Ip, which the WAF refuses from anyone else) and per email, whatever the passwords' outcome.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_RATE } from '../../../shared/dashboard/sign-in-rate.ts';
import { CLIENT_IP_HEADER } from '../../../shared/http/client-address.ts';
import { startTestSandbox, type TestSandbox } from '../../support/sandbox.ts';
import { signedInUser, TEST_PASSWORD, uniqueEmail } from './dashboard-users.ts';

describe('sign-in rate limit per client address and per email', { timeout: 120_000 }, () => {
  let sandbox: TestSandbox;
  let merchantId: string;
  beforeAll(async () => {
    sandbox = await startTestSandbox();
    merchantId = (await sandbox.newMerchant()).merchant.id;
  });
  afterAll(() => sandbox.stop());

  const signIn = (email: string, password: string, client: string) =>
    sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email, password }, headers: { [CLIENT_IP_HEADER]: client } });

  /** Moves the clock to just past a minute's start: the attempts that follow (seconds of real time) share one minute. */
  const startOfMinute = () => sandbox.advance(61 - new Date(sandbox.clock.now()).getUTCSeconds());

  // One after another: in parallel, the scrypt of each unknown email's check would queue the table's calls for seconds.
  it('refuses one client address past its minute of attempts (each on another email), while other addresses go on', async () => {
    const client = '198.51.100.23';
    const limit = SIGN_IN_RATE.perClient.perMinute;
    startOfMinute();
    const answers = [];
    for (let i = 0; i < limit + 5; i++) answers.push(await signIn(uniqueEmail('spray'), 'Wrong-Password-123', client));
    expect(answers.map((res) => res.status)).toEqual([...Array(limit).fill(401), ...Array(5).fill(429)]);
    const refused = answers.filter((res) => res.status === 429);
    expect(refused[0]!.body.code).toBe('too_many_sign_in_attempts');
    expect(Number(refused[0]!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await signIn(uniqueEmail('spray'), 'Wrong-Password-123', '198.51.100.24')).status).toBe(401);
    sandbox.advance(61);
    expect((await signIn(uniqueEmail('spray'), 'Wrong-Password-123', client)).status).toBe(401);
  });

  it("does not count this machine's own calls per client (the sandbox's page and tests; an API stage never sees loopback)", async () => {
    startOfMinute();
    const limit = SIGN_IN_RATE.perClient.perMinute;
    const statuses = [];
    for (let i = 0; i < limit + 2; i++) statuses.push((await sandbox.request('POST', '/v1/dashboard/auth/sign-in', { body: { email: uniqueEmail('local'), password: 'Wrong-Password-123' } })).status);
    expect(statuses).toEqual(Array(limit + 2).fill(401));
  });

  it('refuses one email past its minute of attempts from many addresses, right passwords included', async () => {
    const user = await signedInUser(sandbox, merchantId, 'developer');
    startOfMinute();
    const limit = SIGN_IN_RATE.perEmail.perMinute;
    const answers: number[] = [];
    for (let i = 0; i < limit + 2; i++) answers.push((await signIn(user.email, TEST_PASSWORD, `203.0.113.${i + 1}`)).status);
    expect(answers).toEqual([...Array(limit).fill(200), 429, 429]);
    sandbox.advance(61);
    expect((await signIn(user.email, TEST_PASSWORD, '203.0.113.200')).status).toBe(200);
  });
});
