import { readFile } from 'node:fs/promises';
import { compileErrors, validate } from '@readme/openapi-parser';
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from './build-openapi-document.js';
import { OPENAPI_DOCUMENT_PATH } from './openapi-document-file.js';

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The document as plain JSON, the way clients read it. */
function generated(): Json {
  return JSON.parse(JSON.stringify(buildOpenApiDocument())) as Json;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function child(value: Json | undefined, ...keys: string[]): Json | undefined {
  let current = value;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return current;
}

function collectRefs(value: Json, found: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((item) => collectRefs(item, found));
  else if (isObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (key === '$ref' && typeof item === 'string') found.push(item);
      else collectRefs(item, found);
    }
  }
  return found;
}

function resolvePointer(document: Json, ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  const keys = ref
    .slice(2)
    .split('/')
    .map((key) => key.replaceAll('~1', '/').replaceAll('~0', '~'));
  return child(document, ...keys);
}

interface Operation {
  name: string;
  operationId: Json | undefined;
  responses: { [status: string]: Json };
}

function operations(document: Json): Operation[] {
  const paths = child(document, 'paths');
  if (!isObject(paths)) return [];
  return Object.entries(paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const responses = child(item, method, 'responses');
      return child(item, method) === undefined
        ? []
        : [
            {
              name: `${method.toUpperCase()} ${path}`,
              operationId: child(item, method, 'operationId'),
              responses: isObject(responses) ? responses : {},
            },
          ];
    }),
  );
}

function problemCodes(document: Json, path: string, method: string, status: string): string[] {
  const examples = child(
    document,
    'paths',
    path,
    method,
    'responses',
    status,
    'content',
    'application/problem+json',
    'examples',
  );
  return isObject(examples) ? Object.keys(examples) : [];
}

describe('the OpenAPI document', () => {
  it('docs/openapi.json is the generated document (run `pnpm openapi` after changing a schema)', async () => {
    // Given the committed file
    const committed = JSON.parse(await readFile(OPENAPI_DOCUMENT_PATH, 'utf8')) as Json;
    // When the document is generated from the schemas
    // Then they are the same
    expect(committed).toEqual(generated());
  });

  it('is valid OpenAPI 3.1', async () => {
    // Given the committed file, When it is checked against the OpenAPI 3.1 schema and rules
    const result = await validate(OPENAPI_DOCUMENT_PATH);
    // Then it has no errors
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('resolves every $ref', () => {
    const document = generated();
    const unresolved = collectRefs(document).filter(
      (ref) => resolvePointer(document, ref) === undefined,
    );
    expect(unresolved).toEqual([]);
  });

  it('gives every operation a success response and an operation id', () => {
    const document = generated();
    const ops = operations(document);
    expect(ops.length).toBeGreaterThanOrEqual(14);
    for (const op of ops) {
      expect(
        Object.keys(op.responses).some((status) => status.startsWith('2')),
        op.name,
      ).toBe(true);
    }
  });

  it('describes every error of a forwarded route as a problem document', () => {
    const document = generated();
    for (const op of operations(document)) {
      if (op.name === 'GET /api/health') continue; // answers 503 with the same report as 200
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        expect(
          child(response, 'content', 'application/problem+json', 'schema', '$ref'),
          `${op.name} ${status}`,
        ).toBe('#/components/schemas/ProblemDetails');
      }
    }
  });

  it("names the HTTP edge's refusals on every operation, and a body's only where a body is taken", () => {
    const document = generated();
    for (const [path, method] of [
      ['/api/orders', 'post'],
      ['/api/orders/{orderId}', 'get'],
      ['/api/inventory/{sku}/restock', 'post'],
    ] as const) {
      expect(problemCodes(document, path, method, '408')).toEqual(['REQUEST_TIMEOUT']);
      expect(problemCodes(document, path, method, '414')).toEqual(['URI_TOO_LONG']);
      expect(problemCodes(document, path, method, '431')).toEqual(['HEADERS_TOO_LARGE']);
    }
    expect(problemCodes(document, '/api/orders', 'post', '413')).toEqual(['PAYLOAD_TOO_LARGE']);
    expect(problemCodes(document, '/api/orders', 'post', '415')).toEqual([
      'UNSUPPORTED_MEDIA_TYPE',
    ]);
    expect(problemCodes(document, '/api/orders/{orderId}', 'get', '413')).toEqual([]);
  });

  it('names the problem codes a client must handle', () => {
    const document = generated();
    expect(problemCodes(document, '/api/orders', 'post', '400')).toEqual(
      expect.arrayContaining(['VALIDATION_FAILED', 'IDEMPOTENCY_KEY_REQUIRED']),
    );
    expect(problemCodes(document, '/api/orders', 'post', '422')).toEqual([
      'IDEMPOTENCY_KEY_REUSED',
      'PAYMENT_TOKEN_MALFORMED',
    ]);
    expect(problemCodes(document, '/api/orders/{orderId}', 'get', '404')).toEqual([
      'ORDER_NOT_FOUND',
    ]);
    expect(problemCodes(document, '/api/orders/{orderId}/cancel', 'post', '409')).toContain(
      'ORDER_ALREADY_CONFIRMED',
    );
    expect(problemCodes(document, '/api/inventory/{sku}', 'get', '404')).toEqual(['SKU_NOT_FOUND']);
    expect(problemCodes(document, '/api/orders', 'get', '503')).toEqual([
      'UPSTREAM_UNAVAILABLE',
      'DATABASE_UNAVAILABLE',
    ]);
  });

  it('requires the Idempotency-Key header to place an order', () => {
    const parameters = child(generated(), 'paths', '/api/orders', 'post', 'parameters');
    expect(parameters).toEqual([
      expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true }),
    ]);
  });

  it('requires the Idempotency-Key header to restock, with the same refusals as placing an order', () => {
    const document = generated();
    const restock = '/api/inventory/{sku}/restock';
    expect(child(document, 'paths', restock, 'post', 'parameters')).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'header', name: 'Idempotency-Key', required: true }),
      ]),
    );
    expect(problemCodes(document, restock, 'post', '400')).toContain('IDEMPOTENCY_KEY_REQUIRED');
    expect(problemCodes(document, restock, 'post', '422')).toEqual(['IDEMPOTENCY_KEY_REUSED']);
  });
});
