// Every problem `code` the public API documents, with the status it comes with.
// One list, so the document, its examples and docs/api.md name the same codes.

export interface DocumentedProblem {
  status: number;
  title: string;
  /** When a client gets it, and what to do about it. */
  meaning: string;
}

export const PROBLEMS = {
  REQUEST_TIMEOUT: {
    status: 408,
    title: 'The request did not arrive in time',
    meaning:
      "Its headers and body were not all received within the gateway's REQUEST_TIMEOUT_MS (10 s by default); the connection is closed. Send the request again.",
  },
  PAYLOAD_TOO_LARGE: {
    status: 413,
    title: 'The request body is too large',
    meaning: 'The body is over 1 MiB. It was refused at the gateway and not forwarded.',
  },
  URI_TOO_LONG: {
    status: 414,
    title: 'The request path is too long',
    meaning: 'A path parameter (an order id, a SKU) is over 100 characters.',
  },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    title: 'The request body is not JSON',
    meaning: 'Send the body as `Content-Type: application/json`.',
  },
  HEADERS_TOO_LARGE: {
    status: 431,
    title: 'The request headers are too large',
    meaning: 'The headers are over 16 KiB in all.',
  },
  VALIDATION_FAILED: {
    status: 400,
    title: 'The request is not valid',
    meaning: 'A parameter, header or body field breaks its schema; `errors` lists each one.',
  },
  MALFORMED_JSON: {
    status: 400,
    title: 'The request body is not valid JSON',
    meaning: 'The body could not be parsed. Send `Content-Type: application/json` and valid JSON.',
  },
  IDEMPOTENCY_KEY_REQUIRED: {
    status: 400,
    title: 'The Idempotency-Key header is required',
    meaning:
      'POST /api/orders and POST /api/inventory/{sku}/restock need an `Idempotency-Key` header: 1-255 printable ASCII characters.',
  },
  PAYMENT_TOKEN_MALFORMED: {
    status: 422,
    title: 'The payment token is not a card token',
    meaning:
      'The token is not in the card processor\'s format (tok_ followed by lower-case letters, digits or "_"). Nothing was placed; fix the token. A token in that format the processor does not know is accepted and ends as a declined payment.',
  },
  IDEMPOTENCY_KEY_REUSED: {
    status: 422,
    title: 'The Idempotency-Key was used with another request body',
    meaning:
      'A key names one request. Use a new key for a different order or restock (another SKU or quantity is a different restock).',
  },
  INVALID_CURSOR: {
    status: 400,
    title: 'The cursor is not valid',
    meaning:
      'Pass the `nextCursor` of the previous page unchanged, or leave it out for the first page.',
  },
  ORDER_NOT_FOUND: {
    status: 404,
    title: 'No such order',
    meaning: 'No order has this id.',
  },
  ORDER_ALREADY_CONFIRMED: {
    status: 409,
    title: 'The order is already confirmed',
    meaning: 'A confirmed order can no longer be cancelled.',
  },
  ORDER_CHANGED_CONCURRENTLY: {
    status: 409,
    title: 'The order kept changing while the request was decided',
    meaning:
      'The saga changed the order on every attempt to cancel it. Retry: cancelling is idempotent.',
  },
  SKU_NOT_FOUND: {
    status: 404,
    title: 'No such SKU',
    meaning: 'The SKU has never been restocked.',
  },
  PAYMENT_NOT_FOUND: {
    status: 404,
    title: 'No payment for this order',
    meaning:
      'No payment was requested for this order (yet): payment follows the inventory reservation.',
  },
  ADMIN_TOKEN_REQUIRED: {
    status: 401,
    title: 'Admin token required',
    meaning:
      'An operator route (`/api/admin/…`) needs `Authorization: Bearer <ADMIN_TOKEN>`, the token the stack was started with.',
  },
  ADMIN_TOKEN_INVALID: {
    status: 403,
    title: 'Admin token invalid',
    meaning: 'The bearer token is not the ADMIN_TOKEN the stack was started with.',
  },
  NOT_FOUND: {
    status: 404,
    title: 'No such resource',
    meaning:
      'No route for this method and path. An operator route (`/api/admin/…`) answers it too on a stack started without an ADMIN_TOKEN: it has no operator routes.',
  },
  UPSTREAM_UNAVAILABLE: {
    status: 503,
    title: 'The service behind this route is unavailable',
    meaning:
      'Status 503: the gateway could not connect, so the request was not delivered. Status 502: the connection broke before an answer, so the request may or may not have taken effect. Retry either; retry a POST that takes an Idempotency-Key (placing an order, restocking) with the same key.',
  },
  DATABASE_UNAVAILABLE: {
    status: 503,
    title: 'The service could not reach its database',
    meaning:
      'The service lost or could not open its connection to PostgreSQL while handling the request: it may or may not have taken effect. Retry; retry a POST that takes an Idempotency-Key (placing an order, restocking) with the same key.',
  },
  UPSTREAM_TIMEOUT: {
    status: 504,
    title: 'The service behind this route did not answer in time',
    meaning:
      'The request was delivered but no answer came in time: it may or may not have taken effect. Retry; retry a POST that takes an Idempotency-Key (placing an order, restocking) with the same key.',
  },
} as const satisfies Record<string, DocumentedProblem>;

export type ProblemCode = keyof typeof PROBLEMS;

/** The `type` URI of a code, as the services and the gateway build it. */
export function problemTypeOf(code: string): string {
  return `urn:effectively-once:problem:${code.toLowerCase().replaceAll('_', '-')}`;
}
