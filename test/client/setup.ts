/** The client test files' simulator: reset to the seed (content, quotas, windows, faults, stats) before each test. */
import type { Simulator, SimulatorOptions } from '../../src/simulator/index.js';
import { useSimulatorLifecycle } from '../support/use-simulator.js';
import { reset, simulator } from './helpers.js';

export const useSimulator = (options: SimulatorOptions = {}): (() => Simulator) =>
  useSimulatorLifecycle(options, { start: simulator, beforeEach: reset });
