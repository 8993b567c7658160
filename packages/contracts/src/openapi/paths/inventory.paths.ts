import type { ZodOpenApiPathsObject } from 'zod-openapi';
import {
  DemandList,
  RestockRequest,
  SkuParams,
  StockLevel,
  StockLevelList,
} from '../../api/inventory.api.js';
import { INVALID_REQUEST, UPSTREAM_FAILURES, jsonResponse, problemResponse } from '../responses.js';

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
        'Restocking a SKU that does not exist yet creates it: there is no separate catalogue.',
      requestParams: { path: SkuParams },
      requestBody: { required: true, content: { 'application/json': { schema: RestockRequest } } },
      responses: {
        '200': jsonResponse('The stock level after the restock.', StockLevel),
        '400': problemResponse(['VALIDATION_FAILED', 'MALFORMED_JSON']),
        ...UPSTREAM_FAILURES,
      },
    },
  },
};
