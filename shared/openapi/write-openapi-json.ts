/**
 * Writes the served OpenAPI document into a directory as openapi.json: run at bundle time beside the bundle of the
 * OpenAPI function (infra/constructs/api.ts), which then serves it without bundling the handlers.
 *
 * @example
 * node --import tsx shared/openapi/write-openapi-json.ts cdk.out/asset.1234
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { servedOpenApiDocument } from './openapi-document.ts';
import { OPENAPI_FILE } from './served-document.ts';

const [directory] = process.argv.slice(2);
if (!directory) throw new Error('Usage: write-openapi-json.ts <directory>');
writeFileSync(join(directory, OPENAPI_FILE), JSON.stringify(await servedOpenApiDocument()));
