/**
 * The top of the page: whom the buyer pays (business name and logo), what is being paid (amount, description), test
 * mode, and the time left to pay, counted down on the server's clock. It stays on every state of the page.
 */
import { formatMoney } from '../../shared/domain/money-format.ts';
import type { CheckoutSession } from './checkout-api.ts';
import { byId, show } from './dom.ts';
import { AMOUNT_LOCALE, pageTitle } from './messages.ts';
import { formatRemaining, type ServerClock } from './server-clock.ts';

export class SessionSummary {
  private expiresAt: number | null = null;
  private timer: number | undefined;
  private timeUpSignalled = false;
  private logoFailed = false;

  constructor(
    private readonly clock: ServerClock,
    /** Called once when the countdown reaches zero: the server decides whether the session really closed. */
    private readonly onTimeUp: () => void,
  ) {}

  render(session: CheckoutSession): void {
    this.renderMerchant(session.merchant);
    byId('amount').textContent = formatMoney(session.amountMinor, session.currency, AMOUNT_LOCALE);
    show(byId('amount-line'));
    const description = byId('description');
    description.textContent = session.description ?? '';
    show(description, Boolean(session.description));
    // A simulated network (the sandbox's) moves no money in either mode: its banner says so, and covers test mode.
    show(byId('sandbox-banner'), session.simulated);
    show(byId('test-banner'), session.test && !session.simulated);
    this.expiresAt = Date.parse(session.expiresAt);
  }

  private renderMerchant({ businessName, logoUrl }: CheckoutSession['merchant']): void {
    byId('merchant-name').textContent = businessName;
    document.title = pageTitle(businessName);
    show(byId('merchant'));
    const logo = byId<HTMLImageElement>('merchant-logo');
    if (logoUrl && logo.getAttribute('src') !== logoUrl) {
      this.logoFailed = false;
      // The name beside it says the same: the image is decorative (alt=""); a logo that fails to load is hidden.
      logo.onerror = () => {
        this.logoFailed = true;
        show(logo, false);
      };
      logo.src = logoUrl;
    }
    show(logo, Boolean(logoUrl) && !this.logoFailed);
  }

  /** Whether expiresAt has passed on the server's clock: a 410 then means expired by time, else closed by the merchant. */
  timeIsUp(): boolean {
    return this.expiresAt !== null && this.clock.now() >= this.expiresAt;
  }

  startCountdown(): void {
    show(byId('countdown'));
    this.tick();
    this.timer ??= window.setInterval(() => this.tick(), 1000);
  }

  stopCountdown(): void {
    window.clearInterval(this.timer);
    this.timer = undefined;
    show(byId('countdown'), false);
  }

  private tick(): void {
    if (this.expiresAt === null) return;
    const remaining = this.expiresAt - this.clock.now();
    byId('countdown-value').textContent = formatRemaining(remaining);
    byId('countdown').classList.toggle('urgent', remaining < 60_000);
    if (remaining <= 0 && !this.timeUpSignalled) {
      this.timeUpSignalled = true;
      this.onTimeUp();
    }
  }
}
