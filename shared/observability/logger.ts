/**
 * The one logger of the service: Powertools for AWS Lambda's structured JSON logger, with every line passed
 * through the redaction of shared/observability/redaction.ts, so a card number or a key that reaches a log call by
 * mistake is masked before it is written.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import { SERVICE_NAME } from './metrics.ts';
import { redactingReplacer } from './redaction.ts';

/**
 * A Powertools logger for the service; child loggers (createChild) keep the redaction.
 *
 * @example
 * const logger = createLogger({ logLevel: 'WARN' });
 * logger.info('Charge sent', { card: '4111111111111111' }); // {"level":"INFO",...,"card":"************1111"}
 */
export function createLogger(options: Omit<ConstructorOptions, 'jsonReplacerFn'> = {}): Logger {
  return new Logger({ serviceName: SERVICE_NAME, ...options, jsonReplacerFn: redactingReplacer } as ConstructorOptions);
}
