/**
 * The one logger of the service: Powertools for AWS Lambda's structured JSON logger, with every line passed
 * through the redaction of shared/observability/redaction.ts, so a card number or a key that reaches a log call by
 * mistake is masked before it is written, and error stacks told in the TypeScript sources in a Lambda bundle.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { ConstructorOptions } from '@aws-lambda-powertools/logger/types';
import { SERVICE_NAME } from './metrics.ts';
import { redactingReplacer } from './redaction.ts';
import { sourceMappedStack, withSourceMappedStack } from './source-mapped-stack.ts';

/** Stacks source-mapped (source-mapped-stack.ts), then everything redacted. */
function logReplacer(key: string, value: unknown): unknown {
  if (value instanceof Error) return withSourceMappedStack(value);
  return redactingReplacer(key, key === 'stack' && typeof value === 'string' ? sourceMappedStack(value) : value);
}

/**
 * A Powertools logger for the service; child loggers (createChild) keep the redaction and the stacks' mapping.
 *
 * @example
 * const logger = createLogger({ logLevel: 'WARN' });
 * logger.info('Charge sent', { card: '4111111111111111' }); // {"level":"INFO",...,"card":"************1111"}
 */
export function createLogger(options: Omit<ConstructorOptions, 'jsonReplacerFn'> = {}): Logger {
  return new Logger({ serviceName: SERVICE_NAME, ...options, jsonReplacerFn: logReplacer } as ConstructorOptions);
}
