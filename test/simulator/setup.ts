/** The simulator's HTTP test files: back to the seed through the admin API before each test. */
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { useSimulatorLifecycle } from '../support/use-simulator.js';
import { admin, start } from './helpers.js';

export const useSimulator = (options: SimulatorOptions = {}): (() => Simulator) =>
  useSimulatorLifecycle(options, { start, beforeEach: (sim) => admin(sim, 'POST', 'reset') });
