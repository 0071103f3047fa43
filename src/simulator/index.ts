// The package's `./simulator` entry point: a development tool (tests, demos), never started by the
// integration. The CLI runner, the option schema and the route keys are internal.
/**
 * `startSimulator()`: a local implementation of the service for tests and demos, never started by the integration.
 *
 * @packageDocumentation
 * @module astro-content-publisher/simulator
 */
export { startSimulator, type Simulator } from './server.js';
export type { SimulatorOptions } from './options.js';
export type { SimulatorStats, SimulatorRequestRecord } from './stats.js';
export type { FaultSpec } from './faults.js';
export type { ServiceVariants } from './variants.js';
