/**
 * The gate in front of a build's detail calls: at most `width` at a time, and none once the collection's
 * schema has refused an article. Any refusal fails the build (sync-run.ts), so nothing fetched after it
 * reaches a page in this build, and a schema that refuses a field of every article (a theme's schema the
 * service does not fit) would refuse every one: the requests are kept for the build after the fix, which asks
 * for the articles not sent here as it would have.
 *
 * Until an article has passed the schema, a detail keeps its place until its article is through (stored,
 * refused or failed), so a schema that refuses them all costs the first `width` details, however slow the
 * featured images before the schema are. Once one has passed, a place is free as soon as the service has
 * answered, and the next detail goes out while the article is sanitised and its images fetched.
 */

import { createSemaphore } from '../../client/limiter.js';

/** One detail's place at the gate. */
export interface GatePass {
  /** The service answered (or the request failed): once an article has passed the schema, the place is free. */
  answered(): void;
  /** The article is through: `passed` the schema, was `refused` by it (the gate closes), or `failed` otherwise. */
  done(outcome: 'passed' | 'refused' | 'failed'): void;
}

export interface DetailGate {
  /** Waits for a place; `undefined` when the gate closed first (the detail is not sent). */
  enter(): Promise<GatePass | undefined>;
  /** Whether the schema refused an article: no further detail is sent. */
  readonly closed: boolean;
}

export function createDetailGate(width: number): DetailGate {
  const places = createSemaphore(width);
  let passed = false;
  let closed = false;
  return {
    get closed() {
      return closed;
    },
    async enter() {
      if (closed) return undefined;
      const free = await places.acquire();
      // Closed while waiting: the place goes straight to the next waiter, which leaves at once too.
      if (closed) {
        free();
        return undefined;
      }
      return {
        answered() {
          if (passed) free();
        },
        done(outcome) {
          if (outcome === 'passed') passed = true;
          if (outcome === 'refused') closed = true;
          free();
        },
      };
    },
  };
}
