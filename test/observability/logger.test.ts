import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../shared/observability/logger.ts';

/** Every line the logger writes, parsed, in order: one JSON object per call, errors to stderr, the rest to stdout. */
function capture(write: () => void): Record<string, unknown>[] {
  const lines: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    vi.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      lines.push(String(chunk));
      return true;
    }),
  );
  try {
    write();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return lines.flatMap((l) => l.split('\n')).filter((l) => l.trim()).map((l) => JSON.parse(l) as Record<string, unknown>);
}

describe('createLogger', () => {
  it('writes structured JSON with the service name and the keys it was given', () => {
    const [line] = capture(() => createLogger({ logLevel: 'INFO' }).createChild({ persistentKeys: { route: 'createSession' } }).info('Session created', { merchantId: 'mer_1' }));
    expect(line).toMatchObject({ level: 'INFO', message: 'Session created', service: 'svc-payments', route: 'createSession', merchantId: 'mer_1' });
  });

  it('masks card numbers and secrets in messages, attributes and errors, in child loggers too', () => {
    const logger = createLogger({ logLevel: 'INFO' }).createChild({ persistentKeys: { worker: 'sendWebhooks' } });
    const [info, error] = capture(() => {
      logger.info('Charging 4111111111111111', { body: { card: { number: '4111 1111 1111 1111', cvv: '737' } }, headers: { authorization: 'Bearer sk_live_abc' } });
      logger.error('Unhandled error', { error: new Error('bank refused 5555555555554444 with whsec_abc') });
    });
    const written = JSON.stringify([info, error]);
    expect(written).not.toMatch(/4111111111111111|4111 1111|5555555555554444|737|sk_live_abc|whsec_abc/);
    expect(info).toMatchObject({ message: 'Charging ************1111', body: { card: { number: '************1111', cvv: '[REDACTED]' } }, headers: { authorization: '[REDACTED]' } });
    expect((error!.error as { message: string }).message).toBe('bank refused ************4444 with whsec_[REDACTED]');
  });
});
