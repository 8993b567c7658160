import { describe, expect, it } from 'vitest';
import { loadPaymentConfig } from './config.js';

const required = {
  DATABASE_URL: 'postgres://payment@127.0.0.1:5432/payment',
  EVENT_STORE_DATABASE_URL: 'postgres://payment@127.0.0.1:5432/event_store',
};

describe('the payment configuration', () => {
  it('given only the databases, when loaded, then port 3003 and the local provider with a 2 s timeout', () => {
    const config = loadPaymentConfig(required);

    expect(config).toMatchObject({
      service: 'payment',
      host: '127.0.0.1',
      port: 3003,
      PAYMENT_PROVIDER_URL: 'http://127.0.0.1:3005',
      PAYMENT_PROVIDER_TIMEOUT_MS: 2_000,
    });
  });

  it('given the provider settings, when loaded, then they are used', () => {
    const config = loadPaymentConfig({
      ...required,
      PAYMENT_PROVIDER_URL: 'http://provider.internal:8080',
      PAYMENT_PROVIDER_TIMEOUT_MS: '750',
    });

    expect(config).toMatchObject({
      PAYMENT_PROVIDER_URL: 'http://provider.internal:8080',
      PAYMENT_PROVIDER_TIMEOUT_MS: 750,
    });
  });

  it('given a bad provider URL and timeout, when loaded, then one error names both', () => {
    expect(() =>
      loadPaymentConfig({
        ...required,
        PAYMENT_PROVIDER_URL: 'not a url',
        PAYMENT_PROVIDER_TIMEOUT_MS: '0',
      }),
    ).toThrow(/PAYMENT_PROVIDER_URL.*PAYMENT_PROVIDER_TIMEOUT_MS/);
  });
});
