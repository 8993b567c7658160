// Wrappers around the real provider client: they count calls and inject a
// crash at a named point, so a test can stop the handler exactly there.
import { retryableFailure } from '@effectively-once/idempotency';
import type { PaymentProvider } from '../adapters/provider/payment-provider.client.js';

export interface CountingProvider extends PaymentProvider {
  readonly calls: { authorize: number; void: number; capture: number; close: number };
}

export function countingProvider(provider: PaymentProvider): CountingProvider {
  const calls = { authorize: 0, void: 0, capture: 0, close: 0 };
  return {
    calls,
    authorize: (input) => {
      calls.authorize += 1;
      return provider.authorize(input);
    },
    voidAuthorization: (input) => {
      calls.void += 1;
      return provider.voidAuthorization(input);
    },
    capture: (input) => {
      calls.capture += 1;
      return provider.capture(input);
    },
    closeAuthorizationKey: (input) => {
      calls.close += 1;
      return provider.closeAuthorizationKey(input);
    },
  };
}

/** The provider captures, then the process "dies" before recording the capture. */
export function crashingAfterCapture(provider: PaymentProvider): PaymentProvider {
  return {
    ...provider,
    capture: async (input) => {
      await provider.capture(input);
      throw new Error('simulated crash after the provider captured');
    },
  };
}

/** A processor that is down for every call: each fails as an unreachable provider does. */
export function unavailableProvider(provider: PaymentProvider, reason: string): PaymentProvider {
  const down = () => Promise.reject(retryableFailure(`payment provider unreachable: ${reason}`));
  return {
    authorize: down,
    voidAuthorization: down,
    capture: down,
    closeAuthorizationKey: down,
  };
}

/** The process "dies" between the recorded attempt and the provider call. */
export function crashingBeforeAuthorize(provider: PaymentProvider): PaymentProvider {
  return {
    ...provider,
    authorize: () => Promise.reject(new Error('simulated crash before the provider call')),
  };
}

/** The provider answers, then the process "dies" before recording the answer. */
export function crashingAfterAuthorize(provider: PaymentProvider): PaymentProvider {
  return {
    ...provider,
    authorize: async (input) => {
      await provider.authorize(input);
      throw new Error('simulated crash after the provider answered');
    },
  };
}

/** The provider voids, then the process "dies" before recording the void. */
export function crashingAfterVoid(provider: PaymentProvider): PaymentProvider {
  return {
    ...provider,
    voidAuthorization: async (input) => {
      await provider.voidAuthorization(input);
      throw new Error('simulated crash after the provider voided');
    },
  };
}
