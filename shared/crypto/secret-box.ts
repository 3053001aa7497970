/**
 * Encryption of the secrets we keep (bank credentials, webhook signing secrets and endpoint credentials, card
 * numbers; each far below 4 KB): KMS Encrypt/Decrypt in AWS, AES-256-GCM with a local key file in the sandbox.
 * The encryption context binds a ciphertext to its owner, so it cannot be moved to another record.
 *
 * @example
 * const box = localSecretBox('.sandbox/keys'); // or kmsSecretBox({ keyArn }), or createSecretBox(config)
 * const sealed = await box.encrypt('secret', { merchantId: 'mer_1', purpose: 'bank_credentials' });
 * await box.decrypt(sealed, { merchantId: 'mer_1', purpose: 'bank_credentials' }); // 'secret'
 */
export interface SecretBox {
  /** Returns `<format>:<base64>` (kms1 or local1). Refuses an empty context and a plaintext over 4,096 bytes. */
  encrypt(plaintext: string, context: Record<string, string>): Promise<string>;
  /** Throws DecryptionError when the context differs from the one used to encrypt, or the key, or a byte. */
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
