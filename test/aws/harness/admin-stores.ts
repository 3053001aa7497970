import { KMSClient } from '@aws-sdk/client-kms';
import { kmsSecretBox } from '../../../shared/crypto/kms-secret-box.ts';
import { createApiKeyStore } from '../../../shared/store/api-key-store.ts';
import { createDocumentClient } from '../../../shared/store/dynamo-client.ts';
import { createMerchantStore } from '../../../shared/store/merchant-store.ts';
import type { DeployedStack } from './deployed-stack.ts';
import { resolveValue } from './template.ts';

/**
 * The admin CLI's stores over the local table (bin/admin.ts with --aws), and its SecretBox over the template's
 * secrets key in moto. `use` runs with them; the clients are closed after.
 */
export async function withAdminStores<T>(stack: DeployedStack, use: (stores: ReturnType<typeof adminStores>) => Promise<T>): Promise<T> {
  const db = createDocumentClient({ tableName: stack.cloud.tableName, endpoint: stack.dynamo.endpoint });
  const kms = stack.cloud.client(KMSClient);
  try {
    return await use(adminStores(stack, db, kms));
  } finally {
    db.destroy();
    kms.destroy();
  }
}

function adminStores(stack: DeployedStack, db: ReturnType<typeof createDocumentClient>, kms: KMSClient) {
  const table = stack.cloud.tableName;
  const withKey = stack.cloud.functions.find((f) => f.environment.SECRETS_KMS_KEY_ARN !== undefined);
  if (!withKey) throw new Error('No function of the template has SECRETS_KMS_KEY_ARN');
  const secretsKmsKeyArn = String(resolveValue(withKey.environment.SECRETS_KMS_KEY_ARN, stack.cloud.ids, stack.cloud.template));
  return { db, merchants: createMerchantStore(db, table), apiKeys: createApiKeyStore(db, table), secretBox: kmsSecretBox({ keyArn: secretsKmsKeyArn, kms }) };
}
