// docs/openapi.json as committed: the generated document, formatted by the
// repository's Prettier settings so that `prettier --check .` accepts it.
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { buildOpenApiDocument } from './build-openapi-document.js';

export const OPENAPI_DOCUMENT_PATH = fileURLToPath(
  new URL('../../../../docs/openapi.json', import.meta.url),
);

export async function renderOpenApiDocument(): Promise<string> {
  const options = await resolveConfig(OPENAPI_DOCUMENT_PATH);
  return format(JSON.stringify(buildOpenApiDocument()), {
    ...options,
    filepath: OPENAPI_DOCUMENT_PATH,
  });
}
