import { z } from 'zod';
import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  DemandList,
  RestockRequest,
  SkuParams,
  StockLevel,
  StockLevelList,
  IdempotencyKey,
} from '@effectively-once/contracts';
import { INVALID_REQUEST, UPSTREAM_FAILURES, jsonResponse, problemResponse } from '../responses.js';

const RestockKeyHeader = z.object({
  'Idempotency-Key': IdempotencyKey.meta({
    description:
      'Names this restock. The same key with the same SKU and body replays the first response and adds nothing; the same key for another SKU or body is refused with 422.',
    examples: ['restock-2024-06-01-mugs'],
  }),
});

const RestockedHeaders = z.object({
  'Idempotent-Replayed': z.literal('true').optional().meta({
    description:
      'Present when this is the stored response of an earlier request with the same key: nothing was added this time.',
  }),
});

export const inventoryPaths: ZodOpenApiPathsObject = {
  '/api/inventory': {
    get: {
      operationId: 'listStockLevels',
      tags: ['inventory'],
      summary: 'List the stock level of every SKU, ordered by SKU',
      responses: {
        '200': jsonResponse('Every SKU with its available and reserved quantity.', StockLevelList),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/inventory/demand': {
    get: {
      operationId: 'listDemand',
      tags: ['inventory'],
      summary: 'Units ordered per SKU, as the inventory-demand-v1 tally counted them',
      description:
        'Every OrderPlaced adds its quantities, whatever became of the order. The tally is guarded by its idempotency marker alone (it has no business key), which is why the failure laboratory demonstrates the common mistakes on it.',
      responses: {
        '200': jsonResponse('Every SKU ever ordered with its units and orders.', DemandList),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/inventory/{sku}': {
    get: {
      operationId: 'getStockLevel',
      tags: ['inventory'],
      summary: "Read one SKU's stock level",
      requestParams: { path: SkuParams },
      responses: {
        '200': jsonResponse(
          'How many units are available and how many are reserved by orders.',
          StockLevel,
        ),
        ...INVALID_REQUEST,
        '404': problemResponse(['SKU_NOT_FOUND']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
  '/api/inventory/{sku}/restock': {
    post: {
      operationId: 'restock',
      tags: ['inventory'],
      summary: 'Add units to a SKU',
      description:
        'Restocking a SKU that does not exist yet creates it: there is no separate catalogue. A client that got no answer (a timeout, a 502 or 504) sends the very same request again with the same Idempotency-Key: the units are added once.',
      requestParams: { path: SkuParams, header: RestockKeyHeader },
      requestBody: { required: true, content: { 'application/json': { schema: RestockRequest } } },
      responses: {
        '200': {
          ...jsonResponse(
            'The stock level right after the restock, or, for an Idempotency-Key already used with the same SKU and body, the level that first restock answered.',
            StockLevel,
          ),
          headers: RestockedHeaders,
        },
        '400': problemResponse(['VALIDATION_FAILED', 'MALFORMED_JSON', 'IDEMPOTENCY_KEY_REQUIRED']),
        '422': problemResponse(['IDEMPOTENCY_KEY_REUSED']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
};
