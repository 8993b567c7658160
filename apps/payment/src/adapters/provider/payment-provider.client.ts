// The payment service's only way to the card processor. Every call carries an
// idempotency key derived from the attempt, so a retry after a timeout or a
// crash gets the provider's stored answer instead of a second authorization.
import {
  retryableFailure,
  terminalFailure,
  type ConsumerFailure,
} from '@effectively-once/idempotency';
import type { z } from 'zod';
import type { AuthorizationAnswer } from '../../domain/provider-answer.js';
import {
  AuthorizedResponse,
  CapturedResponse,
  DeclinedResponse,
  KeyClosedResponse,
  ProviderProblem,
  VoidedResponse,
} from './payment-provider.schemas.js';

export interface PaymentProvider {
  /**
   * Authorized, declined, or `closed` when the attempt's key was closed
   * before; throws a retryable or terminal ConsumerFailure otherwise.
   */
  authorize(input: {
    paymentAttemptId: string;
    amountCents: number;
    paymentToken: string;
  }): Promise<AuthorizationAnswer>;
  /** Resolves once the provider confirmed the void; idempotent per attempt. */
  voidAuthorization(input: { paymentAttemptId: string; authorizationId: string }): Promise<void>;
  /** Resolves once the provider confirmed the capture of the full amount; idempotent per attempt. */
  capture(input: { paymentAttemptId: string; authorizationId: string }): Promise<void>;
  /**
   * Finds out what the provider holds under the attempt's authorization key
   * and fences it: the stored answer if there is one, otherwise `closed`, and
   * no authorization can be made under that key from then on. A request still
   * in flight under the key is a retryable failure.
   */
  closeAuthorizationKey(input: { paymentAttemptId: string }): Promise<AuthorizationAnswer>;
}

export interface PaymentProviderClientOptions {
  baseUrl: string;
  /** Per request, body included. Past it the call is a retryable failure. */
  timeoutMs: number;
}

export const authorizeKey = (paymentAttemptId: string): string => `authorize:${paymentAttemptId}`;
export const voidKey = (paymentAttemptId: string): string => `void:${paymentAttemptId}`;
export const captureKey = (paymentAttemptId: string): string => `capture:${paymentAttemptId}`;

/** The provider's problem code for an authorization asked under a key that was closed. */
const KEY_CLOSED = 'IDEMPOTENCY_KEY_CLOSED';

interface ProviderReply {
  status: number;
  body: unknown;
}

/**
 * @example
 * const provider = createPaymentProviderClient({ baseUrl: 'http://127.0.0.1:3005', timeoutMs: 2000 });
 * const answer = await provider.authorize({ paymentAttemptId, amountCents, paymentToken });
 */
export function createPaymentProviderClient(
  options: PaymentProviderClientOptions,
): PaymentProvider {
  const post = async (
    path: string,
    idempotencyKey: string,
    body: object | undefined,
  ): Promise<ProviderReply> => {
    const url = new URL(path, options.baseUrl);
    const what = `POST ${url.pathname} (${idempotencyKey})`;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers:
          body === undefined
            ? {}
            : { 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(options.timeoutMs),
      });
      return { status: response.status, body: await readJson(response) };
    } catch (error) {
      // A timeout or a broken connection says nothing about what the provider
      // did: the same key asked again returns whatever it decided.
      throw retryableFailure(`payment provider unreachable: ${what}: ${describe(error)}`, error);
    }
  };

  return {
    async authorize({ paymentAttemptId, amountCents, paymentToken }) {
      const key = authorizeKey(paymentAttemptId);
      const reply = await post('/authorizations', key, {
        amountCents,
        currency: 'EUR',
        paymentToken,
      });
      if (reply.status === 201) {
        const { authorizationId, amountCents: authorized } = parse(AuthorizedResponse, reply, key);
        return { kind: 'authorized', authorizationId, amountCents: authorized };
      }
      if (reply.status === 402) {
        return { kind: 'declined', reason: parse(DeclinedResponse, reply, key).reason };
      }
      if (reply.status === 409 && problemCode(reply) === KEY_CLOSED) return { kind: 'closed' };
      throw failureFor(reply, key);
    },

    async capture({ paymentAttemptId, authorizationId }) {
      const key = captureKey(paymentAttemptId);
      const path = `/authorizations/${encodeURIComponent(authorizationId)}/capture`;
      const reply = await post(path, key, {});
      if (reply.status !== 200) throw failureFor(reply, key);
      parse(CapturedResponse, reply, key);
    },

    async closeAuthorizationKey({ paymentAttemptId }) {
      const key = authorizeKey(paymentAttemptId);
      const reply = await post(
        `/authorization-keys/${encodeURIComponent(key)}/close`,
        key,
        undefined,
      );
      if (reply.status !== 200) throw failureFor(reply, key);
      const closed = parse(KeyClosedResponse, reply, key);
      switch (closed.outcome) {
        case 'authorized':
          // Captured or voided already is not this attempt's story (a void or
          // capture is recorded by its own step); the authorization existed.
          return {
            kind: 'authorized',
            authorizationId: closed.authorizationId,
            amountCents: closed.amountCents,
          };
        case 'declined':
          return { kind: 'declined', reason: closed.reason };
        case 'closed':
          return { kind: 'closed' };
      }
    },

    async voidAuthorization({ paymentAttemptId, authorizationId }) {
      const key = voidKey(paymentAttemptId);
      const path = `/authorizations/${encodeURIComponent(authorizationId)}/void`;
      const reply = await post(path, key, {});
      if (reply.status !== 200) throw failureFor(reply, key);
      parse(VoidedResponse, reply, key);
    },
  };
}

/**
 * Any status but the expected answers: 409 (the same key still in flight),
 * 408, 429 and 5xx may pass on a later delivery; 400, 422 (a reused key, an
 * unknown token), other 4xx and unexpected statuses are a bug on one side and
 * no redelivery fixes them.
 */
export function failureFor(reply: ProviderReply, key: string): ConsumerFailure {
  const code = problemCode(reply);
  const reason = `payment provider answered ${String(reply.status)}${code === undefined ? '' : ` ${code}`} for ${key}`;
  const { status } = reply;
  const retryable = status === 408 || status === 409 || status === 429 || status >= 500;
  return retryable ? retryableFailure(reason) : terminalFailure(reason);
}

function problemCode(reply: ProviderReply): string | undefined {
  const problem = ProviderProblem.safeParse(reply.body);
  return problem.success ? (problem.data.code ?? problem.data.title) : undefined;
}

/** A success whose body breaks the contract is a bug on one side: park it, do not guess. */
function parse<Schema extends z.ZodType>(
  schema: Schema,
  reply: ProviderReply,
  key: string,
): z.output<Schema> {
  const parsed = schema.safeParse(reply.body);
  if (parsed.success) return parsed.data;
  throw terminalFailure(
    `payment provider answered ${String(reply.status)} for ${key} with an unexpected body: ${parsed.error.issues
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(body)'} ${issue.message}`)
      .join('; ')}`,
  );
}

/** The body as JSON, or undefined when it is not JSON (the schemas then refuse it). */
async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${error.name}: ${error.message}${cause}`;
}
