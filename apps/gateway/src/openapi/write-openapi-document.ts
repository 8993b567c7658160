// `pnpm openapi`: regenerates docs/openapi.json from the zod schemas.
import { writeFile } from 'node:fs/promises';
import { parseCommandLine } from '../../../../tooling/command-line/command-line.js';
import { OPENAPI_DOCUMENT_PATH, renderOpenApiDocument } from './openapi-document-file.js';

parseCommandLine({
  name: 'openapi',
  usage:
    'usage: pnpm openapi\n\nRegenerates docs/openapi.json from the zod schemas of the public API.',
});

await writeFile(OPENAPI_DOCUMENT_PATH, await renderOpenApiDocument());
console.log(`wrote ${OPENAPI_DOCUMENT_PATH}`);
