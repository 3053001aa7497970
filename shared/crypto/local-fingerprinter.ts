import { createHmac } from 'node:crypto';
import { join } from 'node:path';
import { readOrCreateKeyFile } from './local-key-file.ts';
import type { Fingerprinter } from './secret-box.ts';

/**
 * The sandbox's Fingerprinter: HMAC-SHA256 with `<keyDir>/fingerprint.key` (created on first use), as lowercase hex.
 *
 * @example
 * await localFingerprinter('.sandbox/keys').fingerprint('4111111111111111'); // 64 hex characters
 */
export function localFingerprinter(keyDir: string): Fingerprinter {
  const key = readOrCreateKeyFile(join(keyDir, 'fingerprint.key'));
  return {
    async fingerprint(value) {
      return createHmac('sha256', key).update(value, 'utf8').digest('hex');
    },
  };
}
