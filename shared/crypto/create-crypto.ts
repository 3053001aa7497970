import type { KMS, KMSClient } from '@aws-sdk/client-kms';
import { CryptoError } from './errors.ts';
import { kmsFingerprinter } from './kms-fingerprinter.ts';
import { kmsSecretBox } from './kms-secret-box.ts';
import { localFingerprinter } from './local-fingerprinter.ts';
import { localSecretBox } from './local-secret-box.ts';
import type { Fingerprinter, SecretBox } from './secret-box.ts';

/** Where the keys are: KMS in AWS, local key files in the sandbox. A KMS key, when given, wins over the directory. */
export interface CryptoConfig {
  /** Key ARN of the symmetric KMS key that encrypts each secret (SECRETS_KMS_KEY_ARN). */
  secretsKmsKeyArn?: string;
  /** Id, ARN or alias of the HMAC_256 KMS key for fingerprints (FINGERPRINT_KMS_KEY_ID). */
  fingerprintKmsKeyId?: string;
  /** Directory of the local key files (LOCAL_KEY_DIR); the sandbox uses `<SANDBOX_DIR>/keys`. */
  localKeyDir?: string;
}

export function cryptoConfigFromEnvironment(env: NodeJS.ProcessEnv = process.env): CryptoConfig {
  return {
    secretsKmsKeyArn: env.SECRETS_KMS_KEY_ARN || undefined,
    fingerprintKmsKeyId: env.FINGERPRINT_KMS_KEY_ID || undefined,
    localKeyDir: env.LOCAL_KEY_DIR || undefined,
  };
}

/**
 * @example
 * createSecretBox({ localKeyDir: '.sandbox/keys' });
 * createSecretBox({ secretsKmsKeyArn: 'arn:aws:kms:us-east-1:111122223333:key/1234abcd-12ab-34cd-56ef-1234567890ab' });
 */
export function createSecretBox(config: CryptoConfig, { kms }: { kms?: KMS } = {}): SecretBox {
  if (config.secretsKmsKeyArn) return kmsSecretBox({ keyArn: config.secretsKmsKeyArn, kms });
  if (config.localKeyDir) return localSecretBox(config.localKeyDir);
  throw new CryptoError('No key for secrets: set SECRETS_KMS_KEY_ARN (AWS) or LOCAL_KEY_DIR (local key files).');
}

/**
 * @example
 * await createFingerprinter({ localKeyDir: '.sandbox/keys' }).fingerprint('4111111111111111');
 */
export function createFingerprinter(config: CryptoConfig, { kms }: { kms?: KMSClient } = {}): Fingerprinter {
  if (config.fingerprintKmsKeyId) return kmsFingerprinter({ keyId: config.fingerprintKmsKeyId, kms });
  if (config.localKeyDir) return localFingerprinter(config.localKeyDir);
  throw new CryptoError('No key for fingerprints: set FINGERPRINT_KMS_KEY_ID (AWS) or LOCAL_KEY_DIR (local key files).');
}

/**
 * Both, built from the environment on first use: a Lambda function that never encrypts needs neither the variables
 * nor a KMS grant, and one that does fails on its first use with a message naming the missing variable.
 *
 * @example
 * const { secretBox } = cryptoFromEnvironment(); // reads nothing yet
 * await secretBox.encrypt('secret', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 */
export function cryptoFromEnvironment(env: NodeJS.ProcessEnv = process.env): { secretBox: SecretBox; fingerprinter: Fingerprinter } {
  return {
    secretBox: onFirstUse(() => createSecretBox(cryptoConfigFromEnvironment(env)), ['encrypt', 'decrypt']),
    fingerprinter: onFirstUse(() => createFingerprinter(cryptoConfigFromEnvironment(env)), ['fingerprint']),
  };
}

/** An object of async methods whose target is built on the first call (and again after a failed build). */
function onFirstUse<T extends object>(build: () => T, methods: readonly (keyof T & string)[]): T {
  let target: T | undefined;
  const call = (name: keyof T & string) => async (...args: unknown[]) => {
    target ??= build();
    return (target[name] as (...a: unknown[]) => Promise<unknown>).apply(target, args);
  };
  return Object.fromEntries(methods.map((name) => [name, call(name)])) as T;
}
