/**
 * The lifecycle every test file against the simulator shares: one simulator per file (starting one per test
 * would dominate the run time), brought back to a known state before each test so tests stay independent,
 * closed after the file. Folders differ only in how they start it and what "a known state" means.
 */
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { startSimulator, type Simulator, type SimulatorOptions } from '../../src/simulator/index.js';

export interface SimulatorLifecycle {
  /** How the folder starts a simulator. @default startSimulator */
  start?: (options: SimulatorOptions) => Promise<Simulator>;
  /** What runs before each test (a reset to the seed, clearing faults and stats, ...). */
  beforeEach: (sim: Simulator) => Promise<unknown> | unknown;
}

/**
 * Registers the hooks in the calling file and returns a getter: the simulator only exists once `beforeAll` ran,
 * so tests read it through `sim()` rather than a variable captured at collection time.
 */
export function useSimulatorLifecycle(options: SimulatorOptions, lifecycle: SimulatorLifecycle): () => Simulator {
  let started: Simulator | undefined;
  beforeAll(async () => {
    started = await (lifecycle.start ?? startSimulator)(options);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(async () => {
    await lifecycle.beforeEach(current());
  });
  function current(): Simulator {
    if (!started)
      throw new Error('the simulator is not started: call sim() inside a test or hook, not at collection time');
    return started;
  }
  return current;
}
