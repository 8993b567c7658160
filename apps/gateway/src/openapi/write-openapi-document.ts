// `pnpm openapi`: regenerates docs/openapi.json from the zod schemas.
import { writeFile } from 'node:fs/promises';
import { OPENAPI_DOCUMENT_PATH, renderOpenApiDocument } from './openapi-document-file.js';

await writeFile(OPENAPI_DOCUMENT_PATH, await renderOpenApiDocument());
console.log(`wrote ${OPENAPI_DOCUMENT_PATH}`);
