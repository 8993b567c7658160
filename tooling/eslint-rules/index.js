// @ts-check
// The repository's own lint rules: fitness checks that keep the pattern's
// guarantees from eroding as code is added. docs/fitness-rules.md explains
// each one, why it exists and how to allow an exception.
import consumerNameHasVersion from './consumer-name-has-version.js';
import noAckOutsideSettleDelivery from './no-ack-outside-settle-delivery.js';
import noEventStoreAppend from './no-event-store-append.js';
import noNetworkInProcessOnceWork from './no-network-in-process-once-work.js';

/** @type {import('eslint').ESLint.Plugin} */
const plugin = {
  meta: { name: 'effectively-once' },
  rules: {
    'no-ack-outside-settle-delivery': noAckOutsideSettleDelivery,
    'no-event-store-append': noEventStoreAppend,
    'no-network-in-process-once-work': noNetworkInProcessOnceWork,
    'consumer-name-has-version': consumerNameHasVersion,
  },
};

export default plugin;
