interface Closeable {
  close(): Promise<void>;
}

/**
 * Remembers a store's open subscriptions, so that closing the store closes
 * them, and forgets each one once it is closed.
 *
 * @example
 * const subscriptions = subscriptionRegistry();
 * const subscription = subscriptions.track(openSomething());
 * await subscriptions.closeAll();
 */
export function subscriptionRegistry() {
  const open = new Set<Closeable>();
  return {
    track<T extends Closeable>(subscription: T): T {
      const close = subscription.close.bind(subscription);
      subscription.close = async () => {
        open.delete(subscription);
        await close();
      };
      open.add(subscription);
      return subscription;
    },
    async closeAll(): Promise<void> {
      await Promise.all([...open].map((subscription) => subscription.close()));
    },
  };
}
