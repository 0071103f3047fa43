// The loaders' errors and warnings: what a later build can fix by itself, strict mode, and the wording Astro shows.
export * as astroErrors from './astro-errors.js';
export * as transient from './transient.js';
export * as warnings from './warnings.js';
