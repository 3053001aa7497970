import { Duration } from 'aws-cdk-lib';
import { Grant, type IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key, KeySpec, KeyUsage } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import type { StageConfig } from '../stage-config.ts';
import { CARD_NUMBER_PURPOSE } from '../../shared/domain/stored-card.ts';

/** What the SecretBox calls (shared/crypto/kms-secret-box.ts): Encrypt to seal, Decrypt to open. Nothing else of the key. */
export const SECRETS_KEY_ACTIONS = ['kms:Encrypt', 'kms:Decrypt'];
export const FINGERPRINT_KEY_ACTIONS = ['kms:GenerateMac'];
export const CARD_NUMBER_CONTEXT = { 'kms:EncryptionContext:purpose': CARD_NUMBER_PURPOSE };

/**
 * The application's own keys, apart from the table's: the SecretBox key (KMS Encrypt/Decrypt of card numbers, bank
 * credentials and webhook secrets, SECRETS_KMS_KEY_ARN) and the Fingerprinter's HMAC key (FINGERPRINT_KMS_KEY_ID).
 * Both are retained in production like the table: without them the stored ciphertexts and fingerprints are lost.
 *
 * @example
 * const keys = new ServiceKeys(this, 'Keys', { config });
 * keys.grantSecrets(fn.role);
 */
export class ServiceKeys extends Construct {
  readonly secrets: Key;
  readonly fingerprints: Key;

  constructor(scope: Construct, id: string, { config }: { config: StageConfig }) {
    super(scope, id);
    this.secrets = new Key(this, 'SecretsKey', {
      description: `svc-payments ${config.stage}: SecretBox (card numbers, bank credentials, webhook secrets)`,
      enableKeyRotation: true,
      removalPolicy: config.removalPolicy,
      pendingWindow: Duration.days(7),
    });
    this.fingerprints = new Key(this, 'FingerprintKey', {
      description: `svc-payments ${config.stage}: card fingerprints (HMAC)`,
      keySpec: KeySpec.HMAC_256,
      keyUsage: KeyUsage.GENERATE_VERIFY_MAC,
      // KMS cannot rotate HMAC keys, and a new key would change every fingerprint: stored cards would stop matching.
      enableKeyRotation: false,
      removalPolicy: config.removalPolicy,
      pendingWindow: Duration.days(7),
    });
  }

  /** Seal and open SecretBox ciphertexts. */
  grantSecrets(grantee: IGrantable): void {
    // Card numbers are sealed under the same key; they open only with grantCardNumbers.
    Grant.addToPrincipal({ grantee, actions: SECRETS_KEY_ACTIONS, resourceArns: [this.secrets.keyArn], conditions: { StringNotEquals: CARD_NUMBER_CONTEXT } });
  }

  /** Seal and open card numbers only: Encrypt and Decrypt carry the encryption context, which KMS checks against the condition. */
  grantCardNumbers(grantee: IGrantable): void {
    Grant.addToPrincipal({ grantee, actions: SECRETS_KEY_ACTIONS, resourceArns: [this.secrets.keyArn], conditions: { StringEquals: CARD_NUMBER_CONTEXT } });
  }

  /** Compute fingerprints; never verify or read the key. */
  grantFingerprints(grantee: IGrantable): void {
    Grant.addToPrincipal({ grantee, actions: FINGERPRINT_KEY_ACTIONS, resourceArns: [this.fingerprints.keyArn] });
  }
}
