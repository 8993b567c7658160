/**
 * Lets a polling loop sleep until something happened (a notification, a freed
 * slot) or the poll interval passed, whichever comes first. A signal that
 * arrives while the loop is busy is remembered, so no wake-up is lost.
 *
 * @example
 * const wakeup = new Wakeup();
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

  /** Resolves true when woken by a signal, false when the time ran out. */
  async wait(timeoutMs: number): Promise<boolean> {
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
    const signalled = this.#pending;
    this.#pending = false;
    return signalled;
  }
}
