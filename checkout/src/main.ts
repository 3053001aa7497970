/**
 * The checkout page: reads the session named in ?session=, shows the form that fits it (a card, pago móvil C2P, or a
 * picker between them), sends the charge (and the OTP when the bank asks for one), and follows the session while the page is open: expiry at expiresAt is shown
 * on time without a read, and a session that closes elsewhere (merchant, another tab) within one poll while the
 * page is visible (session-poller.ts).
 */
import { formatMoney } from '../../shared/domain/money-format.ts';
import type { ClosedReason } from '../../shared/domain/session-state.ts';
import { C2pForm } from './c2p-form.ts';
import { chargeCard, chargePagoMovil, confirmOtp, getCheckoutSession, requestPagoMovilKey, type ApiAnswer, type ChargeResult, type CheckoutSession } from './checkout-api.ts';
import { byId, show } from './dom.ts';
import { ALREADY_PAID_TEXT, ALREADY_PAID_TITLE, AMOUNT_LOCALE, APPROVED_NO_RETURN, APPROVED_TEXT, CLOSED_TEXTS, CLOSED_TITLES, KEY_LIMIT, METHOD_HEADINGS, payLabel, REFUSALS, REQUEST_PROBLEMS } from './messages.ts';
import { OtpForm } from './otp-form.ts';
import { PaymentForm } from './payment-form.ts';
import { renderReceipt } from './receipt.ts';
import { ReturnRedirect } from './return-redirect.ts';
import { ServerClock } from './server-clock.ts';
import { POLL_MS, SessionPoller, WAITING_POLL_MS } from './session-poller.ts';
import { SessionSummary } from './session-summary.ts';

/** A repeat of a charge still running (409 idempotency_in_progress) is retried with the same key this many times. */
const IN_PROGRESS_RETRIES = 10;

type View = 'loading' | 'closed' | 'approved' | 'waiting' | 'pay' | 'otp';
const VIEW_ELEMENTS: Record<View, string> = { loading: 'loading', closed: 'closed', approved: 'approved', waiting: 'waiting', pay: 'pay', otp: 'otp-form' };
const FINAL_VIEWS: ReadonlySet<View> = new Set(['closed', 'approved']);
/** The methods this page takes, in the picker's order (P2C by reference has its own instructions, not a form here). */
type Method = 'card' | 'pago_movil_c2p';
const PAGE_METHODS: readonly Method[] = ['card', 'pago_movil_c2p'];

const reference = new URLSearchParams(location.search).get('session') ?? '';
const clock = new ServerClock();
const summary = new SessionSummary(clock, timeUp);
const poller = new SessionPoller(refresh, () => (view === 'waiting' ? WAITING_POLL_MS : POLL_MS));
const payment = new PaymentForm();
const c2p = new C2pForm();
const otp = new OtpForm();
const returnRedirect = new ReturnRedirect();

let view: View = 'loading';
let method: Method = 'card';
let configured = false;
/** The session as last read: the receipt names its merchant, description and mode. */
let current: CheckoutSession | null = null;
/** Why the last attempt was rejected: kept for the closing screen when it was the last one allowed. */
let lastDeclineReason: string | null = null;
/** A charge or OTP request is on its way: polls wait, and a second submit is ignored. */
let inFlight = false;
/** A payment key request is on its way: a second click is ignored. */
let requestingKey = false;
let reading = false;
let readAgain = false;
/**
 * One key per attempt: kept while an attempt may be retried unchanged (no answer arrived), so the retry can never
 * charge twice; a new key once the buyer changes anything or an answer arrived.
 */
let chargeKey: string | null = null;

function showView(next: View): void {
  const waitingStarts = next === 'waiting' && view !== 'waiting';
  view = next;
  for (const [name, id] of Object.entries(VIEW_ELEMENTS)) show(byId(id), name === next);
  // The note about card data belongs under the card form only.
  show(byId('secure-note'), next === 'pay' && method === 'card');
  // The bank's answer is due within seconds: the next read comes at the waiting interval, not the usual one.
  if (waitingStarts) poller.schedule();
  if (FINAL_VIEWS.has(next)) {
    poller.stop();
    summary.stopCountdown();
  }
}

/** The form and heading of the method picked; an attempt prepared for the other method is not reused. */
function chooseMethod(next: Method): void {
  method = next;
  chargeKey = null;
  show(payment.form, next === 'card');
  show(c2p.form, next === 'pago_movil_c2p');
  show(byId('secure-note'), view === 'pay' && next === 'card');
  byId('page-heading').textContent = METHOD_HEADINGS[next];
}

/** The picker only when the session takes more than one method the page has a form for. */
function configureMethods(session: CheckoutSession): void {
  const methods = PAGE_METHODS.filter((m) => session.paymentMethods.includes(m));
  show(byId('method-picker'), methods.length > 1);
  chooseMethod(methods[0] ?? 'card');
}

/** Above the form of either method: the attempts are the session's, whatever the method. */
const warnLastAttempt = (visible: boolean): void => show(byId('last-attempt'), visible);

function showClosed(reason: ClosedReason | 'completed' | 'not_found', declineReason: string | null = null): void {
  if (view === 'approved') return;
  byId('closed-title').textContent = CLOSED_TITLES[reason];
  byId('closed-text').textContent = CLOSED_TEXTS[reason];
  // Attempts ran out: the buyer still learns why the last one failed.
  const why = reason === 'max_failures_reached' ? (declineReason ?? lastDeclineReason) : null;
  byId('closed-reason-text').textContent = why ?? '';
  show(byId('closed-reason'), why !== null);
  // Nothing is left to do here: the way back to the shop, as the receipt offers it (no session, no shop to name).
  const target = reason === 'not_found' ? null : safeReturnUrl(current?.returnUrl ?? null);
  if (target) byId<HTMLAnchorElement>('closed-return').href = target;
  show(byId('closed-actions'), Boolean(target));
  const changed = view !== 'closed';
  showView('closed');
  if (changed) byId('closed-title').focus();
}

/**
 * The receipt of the approved payment. Just paid here: back to the shop after a countdown the buyer can stop (or
 * at once with the link). Opened on a session paid before: the receipt alone, nothing moves.
 */
function showApproved(transaction: ChargeResult['transaction'], returnUrl: string | null, { paidBefore = false } = {}): void {
  if (current) renderReceipt(transaction, current, current.merchant.businessName);
  const target = safeReturnUrl(returnUrl);
  byId('approved-title').textContent = paidBefore ? ALREADY_PAID_TITLE : '¡Pago aprobado!';
  byId('approved-text').textContent = paidBefore ? ALREADY_PAID_TEXT : target ? APPROVED_TEXT : APPROVED_NO_RETURN;
  const link = byId<HTMLAnchorElement>('approved-return');
  if (target) link.href = target;
  show(link, Boolean(target));
  showView('approved');
  byId('approved-title').focus();
  if (target && !paidBefore) returnRedirect.start(target);
}

/** Only web addresses: a javascript: or data: returnUrl must never run in the checkout's origin. */
function safeReturnUrl(value: string | null): string | null {
  try {
    const url = new URL(value ?? '');
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.href : null;
  } catch {
    return null;
  }
}

type NextAction = NonNullable<ChargeResult['nextAction']>;

/** The code step for this attempt: what the bank asks for, the entries left and the session's attempts. */
function showOtp(transactionReference: string, action: NextAction | null, attemptsRemaining: number | null): void {
  if (otp.transactionReference !== transactionReference) otp.start(transactionReference, action?.type === 'otp' ? action.entriesRemaining : null, action?.type === 'otp' ? action.factor : null);
  otp.setAttempts({ attemptsRemaining, lastAttempt: current?.lastAttemptWarning ?? false });
  if (view !== 'otp') {
    showView('otp');
    otp.focus();
  }
}

/** Brings the page in line with the session as the server sees it now. */
function applySession(session: CheckoutSession, serverNow: number | null): void {
  if (serverNow !== null) clock.sync(serverNow);
  current = session;
  summary.render(session);
  if (!configured) {
    const label = payLabel(formatMoney(session.amountMinor, session.currency, AMOUNT_LOCALE));
    payment.configure(session, label);
    c2p.configure(session, label);
    otp.configure(session.otpAsksCard);
    configureMethods(session);
    configured = true;
  }
  warnLastAttempt(session.lastAttemptWarning);
  if (FINAL_VIEWS.has(view)) return;
  switch (session.status) {
    case 'completed': {
      const paid = session.lastTransaction?.status === 'approved' ? session.lastTransaction : null;
      if (!paid) return showClosed('completed');
      // The attempt this page was waiting for (the bank answered late) was approved: the buyer's own payment.
      return showApproved(paid, session.returnUrl, { paidBefore: view !== 'waiting' });
    }
    case 'expired':
      return showClosed(session.closedReason ?? 'expired', session.lastTransaction?.declineReason ?? null);
    case 'otp_requested':
      if (session.lastTransaction) showOtp(session.lastTransaction.reference, session.nextAction, session.attemptsRemaining);
      break;
    case 'processing':
    case 'otp_confirmed':
      if (!inFlight) showView('waiting');
      break;
    default:
      if (view === 'loading' || view === 'waiting' || view === 'otp') {
        const wasWaiting = view !== 'loading';
        showView('pay');
        // The attempt the page was waiting for ended rejected: say why.
        if (wasWaiting && session.lastTransaction?.declineReason) declined(session.lastTransaction.declineReason);
      }
  }
  if (!FINAL_VIEWS.has(view)) summary.startCountdown();
}

/**
 * expiresAt has come on the server's clock. With no charge at the bank the session is now expired (the server's
 * rule, effectiveState in shared/domain/session-state.ts): shown at once, without a read. With a charge
 * awaited, the bank's answer may still complete it, so the server is asked.
 */
function timeUp(): void {
  if (view === 'pay' && !inFlight) showClosed('expired');
  else void poller.readNow();
}

async function refresh(): Promise<void> {
  if (inFlight || FINAL_VIEWS.has(view)) return;
  // A read asked for while one is on its way (the buyer comes back as a poll runs) may need a newer answer than
  // that one will bring: it is made once the current read ends, instead of being dropped.
  if (reading) return void (readAgain = true);
  reading = true;
  do {
    readAgain = false;
    const answer = await getCheckoutSession(reference);
    // A charge answer that arrived meanwhile is newer than this read.
    if (inFlight) break;
    if (answer.ok) applySession(answer.body, answer.serverNow);
    else if (answer.status === 404 || answer.status === 400) showClosed('not_found');
    // Other failures (offline for a moment): the next read tries again.
  } while (readAgain && !FINAL_VIEWS.has(view));
  reading = false;
}

/** Sends a request; a repeat that finds the first still running waits and asks again with the same key. */
async function send<T>(request: () => Promise<ApiAnswer<T>>): Promise<ApiAnswer<T>> {
  let answer = await request();
  for (let retry = 0; retry < IN_PROGRESS_RETRIES && !answer.ok && answer.error?.code === 'idempotency_in_progress'; retry++) {
    const waitSeconds = (!answer.ok && answer.retryAfterSeconds) || 1;
    await new Promise((resolve) => window.setTimeout(resolve, waitSeconds * 1000));
    answer = await request();
  }
  return answer;
}

/** What a charge or OTP answer means for the page. */
function applyResult(result: ChargeResult): void {
  const { transaction, session, nextAction } = result;
  if (transaction.status === 'approved') return showApproved(transaction, session.returnUrl);
  if (nextAction?.type === 'otp') return showOtp(transaction.reference, nextAction, session.attemptsRemaining);
  if (transaction.status === 'pending') return showView('waiting');
  if (session.status === 'expired') return showClosed(session.closedReason ?? 'expired', transaction.declineReason);
  // Declined or failed with attempts left (an OTP step that ended declined included): back to the form.
  showView('pay');
  warnLastAttempt(session.attemptsRemaining === 1);
  declined(transaction.declineReason ?? REQUEST_PROBLEMS.unavailable);
  // Without maxFailures the answer's attemptsRemaining is null, yet the session has a default bound: the page's
  // own read says whether one attempt remains (lastAttemptWarning).
  if (session.attemptsRemaining === null) void refresh();
}

function declined(reason: string): void {
  lastDeclineReason = reason;
  (method === 'card' ? payment : c2p).declined(reason);
}

/** A request that did not become a result: closed sessions are shown closed; the rest is explained in place. */
function applyRefusal(answer: Extract<ApiAnswer<unknown>, { ok: false }>, showProblem: (message: string, field?: string) => void): void {
  const code = answer.error?.code ?? '';
  if (answer.status === 410) showClosed(summary.timeIsUp() ? 'expired' : 'merchant_request');
  else if (code === 'attempts_exhausted') showClosed('max_failures_reached');
  else if (code === 'session_completed') showClosed('completed');
  else if (answer.status === 404) showClosed('not_found');
  else if (answer.status === 0) showProblem(REQUEST_PROBLEMS.offline);
  else if (answer.status === 429) showProblem(REQUEST_PROBLEMS.tooMany);
  else if (answer.status === 400) showProblem(REQUEST_PROBLEMS.rejectedData, answer.error?.field);
  else showProblem(REFUSALS[code] ?? REQUEST_PROBLEMS.unavailable);
  // After a 400 (an attempt that counted) or a 409 on an open session: attempts left, the warning, or a closing.
  void poller.readNow();
}

/** One charge attempt, by card or pago móvil, under the attempt's Idempotency-Key. */
async function attempt(form: PaymentForm | C2pForm, request: (idempotencyKey: string) => Promise<ApiAnswer<ChargeResult>>): Promise<void> {
  chargeKey ??= crypto.randomUUID();
  const key = chargeKey;
  inFlight = true;
  form.setBusy(true);
  const answer = await send(() => request(key));
  inFlight = false;
  form.setBusy(false);
  if (answer.status !== 0) chargeKey = null;
  if (answer.ok) applyResult(answer.body);
  else applyRefusal(answer, (message, field) => form.showProblem(message, field));
}

async function submitPayment(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (inFlight) return;
  const data = payment.read(clock.now());
  if (data) await attempt(payment, (key) => chargeCard(reference, data, key));
}

async function submitC2p(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  if (inFlight) return;
  const data = c2p.read(true);
  if (data) await attempt(c2p, (key) => chargePagoMovil(reference, data.payer, data.key, key));
}

/** "Solicitar clave": the buyer's bank sends the key by SMS, or says why not (its own Spanish reason), or the bound is reached. */
async function requestKey(): Promise<void> {
  if (inFlight || requestingKey) return;
  const data = c2p.read(false);
  if (!data) return;
  requestingKey = true;
  c2p.setRequestingKey(true);
  const answer = await requestPagoMovilKey(reference, data.payer);
  requestingKey = false;
  c2p.setRequestingKey(false);
  if (answer.ok) c2p.keySent(answer.body.keysRemaining);
  else if (answer.error?.code === 'payment_key_refused') c2p.keyRefused(answer.error.message);
  else if (answer.error?.code === 'payment_key_limit') c2p.keyRefused(KEY_LIMIT);
  else applyRefusal(answer, (message, field) => c2p.keyRefused(message, field));
}

async function submitOtp(event: SubmitEvent): Promise<void> {
  event.preventDefault();
  const transactionReference = otp.transactionReference;
  const entry = otp.read();
  if (inFlight || !entry || !transactionReference) return;
  const key = crypto.randomUUID();
  inFlight = true;
  otp.setBusy(true);
  const answer = await send(() => confirmOtp(reference, transactionReference, entry, key));
  inFlight = false;
  otp.setBusy(false);
  if (answer.ok) applyResult(answer.body);
  // Without a field the bank refused the entry, which may be the account type as well as the code.
  else if (answer.error?.code === 'otp_invalid') otp.wrongCode(answer.error.field !== 'code');
  else applyRefusal(answer, (message) => otp.showProblem(message));
}

/** The way back: the attempt awaiting its code ends (one failure, said under the button) and the card form returns. */
async function leaveOtp(): Promise<void> {
  const transactionReference = otp.transactionReference;
  if (inFlight || !transactionReference) return;
  inFlight = true;
  otp.setBusy(true);
  const answer = await send(() => confirmOtp(reference, transactionReference, { abandon: true }, crypto.randomUUID()));
  inFlight = false;
  otp.setBusy(false);
  if (answer.ok) applyResult(answer.body);
  else applyRefusal(answer, (message) => otp.showProblem(message));
}

function start(): void {
  payment.form.addEventListener('submit', (event) => void submitPayment(event));
  payment.form.addEventListener('input', () => (chargeKey = null));
  c2p.form.addEventListener('submit', (event) => void submitC2p(event));
  c2p.form.addEventListener('input', () => (chargeKey = null));
  c2p.keyButton.addEventListener('click', () => void requestKey());
  byId('method-picker').addEventListener('change', (event) => chooseMethod((event.target as HTMLInputElement).value as Method));
  otp.form.addEventListener('submit', (event) => void submitOtp(event));
  otp.back.addEventListener('click', () => void leaveOtp());
  byId('print-receipt').addEventListener('click', () => {
    // The print dialog takes as long as it takes: the page must not leave under it.
    returnRedirect.stop();
    window.print();
  });
  if (!/^cs_[0-9A-Za-z]{1,64}$/.test(reference)) return showClosed('not_found');
  poller.start();
}

start();
