// The page's budget and its boundary: small enough for a slow link, and
// built without zod or any server package (the page imports API types only).
import { describe, expect, it } from 'vitest';
import { buildWebBundle, JS_BUDGET_GZIP_BYTES } from './build-web-bundle.js';

const bundle = await buildWebBundle();

describe('buildWebBundle', () => {
  it('keeps the gzipped JavaScript under the budget', () => {
    console.info(`console page: app.js ${String(bundle.gzippedJsBytes)} bytes gzipped`);

    expect(bundle.gzippedJsBytes).toBeGreaterThan(0);
    expect(bundle.gzippedJsBytes).toBeLessThan(JS_BUDGET_GZIP_BYTES);
  });

  it('bundles neither zod nor a workspace package', () => {
    const forbidden = bundle.inputs.filter((input) =>
      /node_modules\/(zod|@effectively-once)\/|(^|\/)packages\//.test(input),
    );

    expect(bundle.inputs.some((input) => input.endsWith('src/web/main.tsx'))).toBe(true);
    expect(forbidden).toEqual([]);
  });

  it('serves the page, its script with a source map, and its styles', () => {
    expect([...bundle.assets.keys()]).toEqual(
      expect.arrayContaining(['/', '/assets/app.js', '/assets/app.js.map', '/assets/app.css']),
    );
    expect(bundle.assets.get('/')?.contentType).toBe('text/html; charset=utf-8');
    expect(bundle.assets.get('/assets/app.js')?.body.toString()).toContain(
      '//# sourceMappingURL=app.js.map',
    );
  });
});
