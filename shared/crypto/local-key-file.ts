import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { KeyFileError } from './errors.ts';

const LOCAL_KEY_BYTES = 32;

/**
 * The 32-byte key in `path`, created on first use (file 0600, directory 0700). The new key is written aside and
 * hard-linked into place, which fails if the file appeared meanwhile: the sandbox and the admin CLI starting at the
 * same moment still end up with one key.
 *
 * @example
 * const key = readOrCreateKeyFile('.sandbox/keys/secret-box.key'); // 32 bytes
 */
export function readOrCreateKeyFile(path: string): Uint8Array {
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    const aside = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(aside, randomBytes(LOCAL_KEY_BYTES), { mode: 0o600, flag: 'wx' });
    try {
      linkSync(aside, path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      unlinkSync(aside);
    }
  }
  const key = readFileSync(path);
  if (key.length !== LOCAL_KEY_BYTES) {
    throw new KeyFileError(
      `Key file ${path} holds ${key.length} bytes instead of ${LOCAL_KEY_BYTES}. Restore the original, or delete it to start with a new key (secrets sealed with the old key become unreadable).`,
    );
  }
  return key;
}
