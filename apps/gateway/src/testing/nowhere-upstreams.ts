// Upstreams for tests that build the gateway without forwarding anything:
// nothing listens at the discard port, one replica per service.
import type { Upstreams } from '../config.js';

export const NOWHERE = 'http://127.0.0.1:9';

export const NOWHERE_UPSTREAMS: Upstreams = {
  order: [NOWHERE],
  inventory: [NOWHERE],
  payment: [NOWHERE],
  notification: [NOWHERE],
  'payment-provider': [NOWHERE],
  'mail-sink': [NOWHERE],
};
