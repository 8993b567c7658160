// fetch for the page's own origin. Answers are trusted as the types the server
// validated them against (the page carries no zod); a problem document
// (RFC 9457) becomes an ApiError, which a view shows in its status line.

/** A failed request: the problem document's status, code and detail. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;

  constructor(input: { status: number; code: string; detail: string }) {
    super(`${input.code}: ${input.detail}`);
    this.name = 'ApiError';
    this.status = input.status;
    this.code = input.code;
    this.detail = input.detail;
  }
}

/** Reads a failed answer's body: a problem document when it is one, else the HTTP status text. */
export function toApiError(status: number, statusText: string, body: unknown): ApiError {
  const problem = isRecord(body) ? body : {};
  const code = typeof problem['code'] === 'string' ? problem['code'] : `HTTP_${status.toString()}`;
  const detail =
    typeof problem['detail'] === 'string'
      ? problem['detail']
      : typeof problem['title'] === 'string'
        ? problem['title']
        : statusText || 'request failed';
  return new ApiError({ status, code, detail });
}

/** What a view writes in its status line when a request failed. */
export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    return error.status === 0
      ? error.detail
      : `Error ${error.status.toString()} ${error.code}: ${error.detail}`;
  }
  return error instanceof Error ? error.message : String(error);
}

export function getJson<T>(path: string, init: { signal?: AbortSignal } = {}): Promise<T> {
  return request<T>(path, { method: 'GET', headers: { accept: 'application/json' }, ...init });
}

export function postJson<T>(
  path: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal?: AbortSignal } = {},
): Promise<T> {
  return request<T>(path, {
    method: 'POST',
    ...(init.signal === undefined ? {} : { signal: init.signal }),
    headers: {
      accept: 'application/json',
      'content-type': 'application/json',
      ...init.headers,
    },
    body: JSON.stringify(body),
  });
}

async function request<T>(path: string, init: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError({
      status: 0,
      code: 'NETWORK_ERROR',
      detail: 'the console cannot be reached',
    });
  }
  const body = await readBody(response);
  if (!response.ok) throw toApiError(response.status, response.statusText, body);
  // The server validated this answer against the schema T names (section 2.6).
  return body as T;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
