export { startSimulator, type Simulator } from './server.js';
export { simulatorOptionsSchema, resolveSimulatorOptions, type SimulatorOptions, type ResolvedSimulatorOptions } from './options.js';
export type { SimulatorStats, SimulatorRequestRecord } from './stats.js';
export { faultSchema, type FaultSpec } from './faults.js';
export { ROUTE_KEYS } from './routes.js';
export { runSimulatorCommand } from './cli.js';
export { serviceVariantsSchema, PROFILES, type ServiceVariants, type ResolvedServiceVariants, type ProfileName } from './variants.js';
