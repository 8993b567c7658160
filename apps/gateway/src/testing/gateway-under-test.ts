// The gateway listening on a free port in front of one fake per service.
import type { ServiceName } from '@effectively-once/contracts';
import { buildApp, type GatewayInstance, type GatewayOptions } from '../app.js';
import type { Upstreams } from '../config.js';
import { startFakeService, type FakeService } from './fake-service.js';

export interface GatewayUnderTest {
  url: string;
  app: GatewayInstance;
  fakes: Readonly<Record<ServiceName, FakeService>>;
  close(): Promise<void>;
}

export async function startGatewayUnderTest(
  input: {
    upstreams?: Partial<Upstreams>;
    /** Any other option of the gateway, given as it is (the lab's tests give it a console). */
    options?: Partial<GatewayOptions>;
    upstreamTimeoutMs?: number;
    healthTimeoutMs?: number;
    requestTimeoutMs?: number;
    /** Where the gateway logs; without one it logs nothing. */
    logStream?: { write(line: string): void };
  } = {},
): Promise<GatewayUnderTest> {
  const [order, inventory, payment, notification, paymentProvider, mailSink] = await Promise.all([
    startFakeService('order'),
    startFakeService('inventory'),
    startFakeService('payment'),
    startFakeService('notification'),
    startFakeService('payment-provider'),
    startFakeService('mail-sink'),
  ]);
  const fakes = {
    order,
    inventory,
    payment,
    notification,
    'payment-provider': paymentProvider,
    'mail-sink': mailSink,
  };
  const app = buildApp({
    upstreams: {
      order: [order.url],
      inventory: [inventory.url],
      payment: [payment.url],
      notification: [notification.url],
      'payment-provider': [paymentProvider.url],
      'mail-sink': [mailSink.url],
      ...input.upstreams,
    },
    upstreamTimeoutMs: input.upstreamTimeoutMs ?? 2_000,
    healthTimeoutMs: input.healthTimeoutMs ?? 500,
    requestTimeoutMs: input.requestTimeoutMs ?? 2_000,
    ...(input.logStream === undefined ? { logger: false } : { logStream: input.logStream }),
    ...input.options,
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    app,
    fakes,
    close: async () => {
      // The tests are over: a connection some test left open must not hold
      // the close (CI once saw this close hang for a minute under load).
      const closing = app.close();
      app.server.closeAllConnections();
      await closing;
      await Promise.all(Object.values(fakes).map((fake) => fake.close()));
    },
  };
}
