/**
 * Encryption of the secrets we keep (bank credentials, webhook endpoint credentials, card numbers): the AWS
 * Encryption SDK with a KMS keyring in AWS and a raw AES keyring from a local key file in the sandbox.
 * The encryption context binds a ciphertext to its owner, so it cannot be moved to another record.
 *
 * @example
 * const box = localSecretBox('.sandbox/keys'); // or kmsSecretBox({ keyArn }), or createSecretBox(config)
 * const sealed = await box.encrypt('secret', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 * await box.decrypt(sealed, { merchantId: 'mer_1', purpose: 'bank_credentials' }); // 'secret'
 */
export interface SecretBox {
  /** Returns base64 ciphertext (an Encryption SDK message). */
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  /** Throws when the context differs from the one used to encrypt. */
  decrypt(ciphertext: string, context: Record<string, string>): Promise<string>;
}

/**
 * Keyed fingerprints (HMAC-SHA256) for matching secrets without storing them, e.g. de-duplicating cards.
 * The key lives in KMS in AWS (GenerateMac) and in a local key file in the sandbox.
 */
export interface Fingerprinter {
  /** 64 lowercase hex characters (HMAC-SHA256 of the UTF-8 value), the same shape from KMS and from the local key. */
  fingerprint(value: string): Promise<string>;
}
