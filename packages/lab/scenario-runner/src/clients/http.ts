// One JSON call with its answer parsed by a schema; a non-2xx answer becomes
// an error that carries the problem document, so a scenario fails readably.
import type { z } from 'zod';

export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function callJson<Schema extends z.ZodType>(
  schema: Schema,
  url: string,
  init: RequestInit & { json?: unknown } = {},
): Promise<z.output<Schema>> {
  const { json, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (json !== undefined) headers.set('content-type', 'application/json');
  const response = await fetch(url, {
    ...rest,
    headers,
    ...(json === undefined ? {} : { body: JSON.stringify(json) }),
  });
  const text = await response.text();
  if (!response.ok) {
    throw new HttpError(
      response.status,
      `${rest.method ?? 'GET'} ${url} answered ${String(response.status)}: ${text}`,
    );
  }
  return schema.parse(text === '' ? {} : JSON.parse(text));
}
