/**
 * Lets the relay sleep until a row was enqueued (a notification) or the poll
 * interval passed, whichever comes first. A signal that arrives while the
 * relay is busy is remembered, so no wake-up is lost.
 *
 * @example
 * client.on('notification', () => wakeup.signal());
 * await wakeup.wait(500);
 */
export class Wakeup {
  #pending = false;
  #resolve: (() => void) | undefined;

  signal(): void {
    this.#pending = true;
    this.#resolve?.();
  }

  async wait(timeoutMs: number): Promise<void> {
    if (!this.#pending) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, timeoutMs);
        this.#resolve = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#resolve = undefined;
    }
    this.#pending = false;
  }
}
