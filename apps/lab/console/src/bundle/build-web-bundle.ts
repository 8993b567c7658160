// The page, bundled in memory when the console starts: no build step, nothing
// written to disk, nothing stale. esbuild takes about a tenth of a second.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

export interface WebAsset {
  contentType: string;
  body: Buffer;
  /** A strong validator: the body's sha256, quoted. */
  etag: string;
}

export interface WebBundle {
  /** By URL path: `/`, `/assets/app.js`, `/assets/app.js.map`, `/assets/app.css`, ... */
  assets: ReadonlyMap<string, WebAsset>;
  /** gzip -9 of app.js: what the budget is about. */
  gzippedJsBytes: number;
  /** The bundle's inputs, relative to the console's folder (esbuild's metafile). */
  inputs: readonly string[];
}

/** The page's JavaScript, gzipped, must stay under this (a unit test enforces it). */
export const JS_BUDGET_GZIP_BYTES = 150 * 1024;

const WEB_DIR = fileURLToPath(new URL('../web/', import.meta.url));
const CONSOLE_DIR = fileURLToPath(new URL('../../', import.meta.url));

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

function asset(path: string, body: Buffer): WebAsset {
  return {
    contentType: CONTENT_TYPES[extname(path)] ?? 'application/octet-stream',
    body,
    etag: `"${createHash('sha256').update(body).digest('base64url')}"`,
  };
}

/**
 * Bundles `src/web/main.tsx` (and the CSS it imports) with esbuild, minified,
 * with a linked source map, and reads `src/web/index.html` as is.
 *
 * @example
 * const bundle = await buildWebBundle();
 * bundle.assets.get('/assets/app.js')?.body;
 */
export async function buildWebBundle(): Promise<WebBundle> {
  const result = await esbuild.build({
    absWorkingDir: CONSOLE_DIR,
    entryPoints: [`${WEB_DIR}main.tsx`],
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    sourcemap: 'linked',
    write: false,
    outdir: '/assets',
    entryNames: 'app',
    metafile: true,
    legalComments: 'none',
    define: { 'process.env.NODE_ENV': '"production"' },
    tsconfig: `${WEB_DIR}tsconfig.json`,
    logLevel: 'silent',
  });
  // Frees esbuild's child process (about 20 MB). Safe for tsx and anyone else
  // in this process: the next esbuild call starts a new one.
  await esbuild.stop();

  const assets = new Map<string, WebAsset>();
  assets.set('/', asset('index.html', await readFile(`${WEB_DIR}index.html`)));
  for (const file of result.outputFiles) {
    assets.set(`/assets/${basename(file.path)}`, asset(file.path, Buffer.from(file.contents)));
  }
  const js = assets.get('/assets/app.js');
  if (js === undefined) throw new Error('esbuild produced no app.js');
  return {
    assets,
    gzippedJsBytes: gzipSync(js.body, { level: 9 }).length,
    inputs: Object.keys(result.metafile.inputs),
  };
}
