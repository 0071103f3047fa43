/** A tiny counting semaphore: at most `max` places are held at once, the rest wait in FIFO order. */
export interface Semaphore {
  /** Waits for a place; the function returned gives it back (once). */
  acquire(): Promise<() => void>;
}

export function createSemaphore(max: number): Semaphore {
  let active = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    // Hand the place straight to the next waiter, so a newcomer cannot slip in between.
    if (next) next();
    else active--;
  };
  return {
    async acquire() {
      if (active >= max) await new Promise<void>((resolve) => waiting.push(resolve));
      else active++;
      let held = true;
      return () => {
        if (!held) return;
        held = false;
        release();
      };
    },
  };
}

/** At most `max` tasks run at once, the rest wait in FIFO order. */
export interface Limiter {
  run<T>(task: () => Promise<T>): Promise<T>;
}

export function createLimiter(max: number): Limiter {
  const places = createSemaphore(max);
  return {
    async run<T>(task: () => Promise<T>): Promise<T> {
      const release = await places.acquire();
      try {
        return await task();
      } finally {
        release();
      }
    },
  };
}
