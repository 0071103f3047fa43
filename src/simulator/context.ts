import type { UserDefinition } from './accounts.js';
import type { FaultRegistry } from './faults.js';
import type { ResolvedSimulatorOptions } from './options.js';
import type { SlidingWindowLimiter } from './rate-limit.js';
import type { StatsCollector } from './stats.js';
import type { ContentStore } from './store.js';

/** What every handler may use. `user` is set for authenticated routes once the token was accepted. */
export interface HandlerContext {
  store: ContentStore;
  options: ResolvedSimulatorOptions;
  /** The simulator's own origin, e.g. http://127.0.0.1:4321 (RSS atom:link self). */
  baseUrl: string;
  stats: StatsCollector;
  faults: FaultRegistry;
  limiter: SlidingWindowLimiter;
  user?: UserDefinition;
  /** Aborted by close(): every wait (fault delays, generate) ends with it. */
  signal: AbortSignal;
  now(): number;
}
