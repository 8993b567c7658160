// The page: index.html at `/` and the bundle under /assets, from memory. A
// changed console restarts with a new bundle, so every asset is revalidated
// (no-cache) against its ETag and costs a 304 when unchanged.
import { ProblemError, type FastifyZodInstance } from '@effectively-once/service-kit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { WebAsset, WebBundle } from '../bundle/build-web-bundle.js';

/** The page loads only its own files; inline script, frames and foreign forms are refused. */
export const PAGE_CSP =
  "default-src 'self'; img-src 'self' data:; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

function sendAsset(
  request: FastifyRequest,
  reply: FastifyReply,
  asset: WebAsset,
  extraHeaders: Readonly<Record<string, string>> = {},
): FastifyReply {
  void reply.headers({
    etag: asset.etag,
    'cache-control': 'no-cache',
    'x-content-type-options': 'nosniff',
    ...extraHeaders,
  });
  if (request.headers['if-none-match'] === asset.etag) return reply.code(304).send();
  return reply.type(asset.contentType).send(asset.body);
}

const AssetParams = z.object({ file: z.string().min(1).max(100) });

/**
 * @example
 * registerAssetRoutes(app, { bundle: await buildWebBundle() });
 */
export function registerAssetRoutes(app: FastifyZodInstance, deps: { bundle: WebBundle }): void {
  const { assets } = deps.bundle;
  app.get('/', (request, reply) => {
    const page = assets.get('/');
    if (page === undefined) throw new Error('The bundle has no index.html.');
    return sendAsset(request, reply, page, { 'content-security-policy': PAGE_CSP });
  });
  app.get('/assets/:file', { schema: { params: AssetParams } }, (request, reply) => {
    const asset = assets.get(`/assets/${request.params.file}`);
    if (asset === undefined) {
      throw new ProblemError({
        status: 404,
        code: 'NOT_FOUND',
        title: 'No such resource',
        detail: `The console has no asset ${request.params.file}.`,
      });
    }
    return sendAsset(request, reply, asset);
  });
}
