/**
 * Banco Mercantil's field encryption, as the bank specifies it (apiportal product page; apimercantil/api-playground
 * getauth/modules/crypto.js; encrypt-examples Util.java): AES-128-ECB with PKCS#5/7 padding and no IV, keyed by the
 * first 16 bytes of SHA-256 of the merchant's secret key (UTF-8); plaintext UTF-8, ciphertext Base64. ECB is the
 * bank's choice, not ours: the bank decrypts exactly this.
 */
import { createCipheriv, createDecipheriv, createHash } from 'node:crypto';

const fieldKey = (secretKey: string): Buffer => createHash('sha256').update(secretKey, 'utf8').digest().subarray(0, 16);

/**
 * @example
 * encryptField('111', 'changeme') // 'eJ70UUsmLeY+kTB/JCigEw=='
 */
export function encryptField(plaintext: string, secretKey: string): string {
  const cipher = createCipheriv('aes-128-ecb', fieldKey(secretKey), null);
  return Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]).toString('base64');
}

/** Throws when the text was not encrypted with this secret (bad padding). */
export function decryptField(ciphertext: string, secretKey: string): string {
  const decipher = createDecipheriv('aes-128-ecb', fieldKey(secretKey), null);
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64')), decipher.final()]).toString('utf8');
}
