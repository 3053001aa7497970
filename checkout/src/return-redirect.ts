/**
 * Back to the merchant's returnUrl after an approved payment (the spec's redirect), once the buyer has had time to
 * see the receipt: a visible countdown they can stop ("Quedarme en esta página"), or skip with the link. A time
 * limit the user can turn off (WCAG 2.2.1); printing stops it too.
 */
import { byId, show } from './dom.ts';
import { redirectIn, REDIRECT_STOPPED } from './messages.ts';

/** Enough to read the receipt's main lines and decide to keep or print it. */
export const REDIRECT_SECONDS = 10;

export class ReturnRedirect {
  private timer: number | undefined;

  constructor() {
    byId('stay-here').addEventListener('click', () => this.stop());
  }

  start(target: string): void {
    let left = REDIRECT_SECONDS;
    const text = byId('redirect-text');
    text.textContent = redirectIn(left);
    show(byId('stay-here'));
    show(byId('redirect-note'));
    this.timer = window.setInterval(() => {
      left -= 1;
      if (left > 0) return void (text.textContent = redirectIn(left));
      window.clearInterval(this.timer);
      this.timer = undefined;
      location.assign(target);
    }, 1000);
  }

  /** The buyer stays: the countdown ends, the link to the shop remains. */
  stop(): void {
    if (this.timer === undefined) return;
    window.clearInterval(this.timer);
    this.timer = undefined;
    byId('redirect-text').textContent = REDIRECT_STOPPED;
    show(byId('stay-here'), false);
  }
}
