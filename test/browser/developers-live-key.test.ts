/**
 * Issue 21 finding 2 on the developers page: a developer is offered no roll or revoke of the live secret key (the
 * API refuses it with 403) and reads why; the test keys keep their buttons; an admin has them on every key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TEST_TIMEOUT, DESKTOP, goTo, screenshot, seriousViolations, signIn, startDashboardHarness, WAIT, type DashboardHarness } from './support/dashboard-browser.ts';

describe('the developers page and the live secret key', BROWSER_TEST_TIMEOUT, () => {
  let harness: DashboardHarness;
  beforeAll(async () => {
    harness = await startDashboardHarness();
  }, 120_000);
  afterAll(() => harness?.close());

  const liveSecret = () => `sk_live_…${harness.keys.secretLive.slice(-4)}`;
  const testSecret = () => `sk_test_…${harness.keys.secretTest.slice(-4)}`;

  it('offers a developer no buttons on the live secret key and says why, but keeps them on the test key', async () => {
    const developer = await harness.invite('developer');
    const { page, errors } = await harness.open(DESKTOP);
    await signIn(page, developer);
    await goTo(page, 'Desarrolladores');
    const liveRow = page.getByRole('row').filter({ hasText: liveSecret() });
    await liveRow.getByText('Solo administradores: una clave secreta real mueve dinero.').waitFor(WAIT);
    expect(await liveRow.getByRole('button').count()).toBe(0);
    const testRow = page.getByRole('row').filter({ hasText: testSecret() });
    await testRow.getByRole('button', { name: `Renovar ${testSecret()}` }).waitFor(WAIT);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'developer-desktop-developers-live-key');
    expect(errors).toEqual([]);
  });

  it('offers an admin roll and revoke on the live secret key', async () => {
    const { page, errors } = await harness.open(DESKTOP);
    await signIn(page, harness.admin);
    await goTo(page, 'Desarrolladores');
    const liveRow = page.getByRole('row').filter({ hasText: liveSecret() });
    await liveRow.getByRole('button', { name: `Renovar ${liveSecret()}` }).waitFor(WAIT);
    await liveRow.getByRole('button', { name: `Revocar ${liveSecret()}` }).waitFor(WAIT);
    expect(errors).toEqual([]);
  });
});
