/**
 * The lifecycle the simulator's HTTP test files share: one simulator per file (starting one per test would
 * dominate the run time), back to the seed through the admin API before each test so tests stay independent,
 * closed after the file.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import type { SimulatorOptions } from '../../src/simulator/index.js';
import { admin, start, type Simulator } from './helpers.js';

/**
 * Registers the hooks in the calling file and returns a getter: the simulator only exists once `beforeAll` ran,
 * so tests read it through `sim()` rather than a variable captured at collection time.
 */
export function useSimulator(options: SimulatorOptions = {}): () => Simulator {
  let started: Simulator | undefined;
  beforeAll(async () => {
    started = await start(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(async () => {
    await admin(current(), 'POST', 'reset');
  });
  function current(): Simulator {
    if (!started) throw new Error('the simulator is not started: call sim() inside a test or hook, not at collection time');
    return started;
  }
  return current;
}
