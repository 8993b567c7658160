import { describe, expect, it } from 'vitest';
import { loadGatewayConfig } from './config.js';

describe('loadGatewayConfig', () => {
  it('defaults to port 3000 on 127.0.0.1 and the services on their default ports', () => {
    // Given an empty environment, When it is read
    const config = loadGatewayConfig({});
    // Then every default is in place
    expect(config).toEqual({
      host: '127.0.0.1',
      port: 3000,
      upstreams: {
        order: ['http://127.0.0.1:3001'],
        inventory: ['http://127.0.0.1:3002'],
        payment: ['http://127.0.0.1:3003'],
        notification: ['http://127.0.0.1:3004'],
        'payment-provider': ['http://127.0.0.1:3005'],
        'mail-sink': ['http://127.0.0.1:3006'],
      },
      upstreamTimeoutMs: 10_000,
      healthTimeoutMs: 1_000,
      requestTimeoutMs: 10_000,
      logLevel: 'info',
    });
  });

  it('reads each variable, dropping a trailing slash from a URL', () => {
    const config = loadGatewayConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      ORDER_URL: 'http://orders.internal:9000/',
      UPSTREAM_TIMEOUT_MS: '2500',
      HEALTH_TIMEOUT_MS: '200',
      REQUEST_TIMEOUT_MS: '3000',
      LOG_LEVEL: 'debug',
    });
    expect(config).toMatchObject({
      host: '0.0.0.0',
      port: 8080,
      upstreams: { order: ['http://orders.internal:9000'] },
      upstreamTimeoutMs: 2500,
      healthTimeoutMs: 200,
      requestTimeoutMs: 3000,
      logLevel: 'debug',
    });
  });

  it('reads a service of several replicas as their URLs separated by commas', () => {
    // Given two payment replicas, When it is read
    const config = loadGatewayConfig({
      PAYMENT_URL: 'http://10.0.0.5:3003/, http://10.0.0.6:3003',
    });
    // Then both are kept, in order, each without its trailing slash
    expect(config.upstreams.payment).toEqual(['http://10.0.0.5:3003', 'http://10.0.0.6:3003']);
  });

  it('refuses replicas that differ in path, or an empty entry in the list', () => {
    expect(() => loadGatewayConfig({ ORDER_URL: 'http://a:3001/v1,http://b:3001/v2' })).toThrow(
      /ORDER_URL: every replica must have the same path/,
    );
    expect(() => loadGatewayConfig({ ORDER_URL: 'http://a:3001,' })).toThrow(
      /ORDER_URL \(replica 2\): must be an http/,
    );
  });

  it('names every bad variable in one error', () => {
    expect(() =>
      loadGatewayConfig({ PORT: 'eighty', INVENTORY_URL: 'ftp://x', LOG_LEVEL: 'loud' }),
    ).toThrow(/PORT.*INVENTORY_URL: must be an http:\/\/ or https:\/\/ URL.*LOG_LEVEL/);
  });
});
