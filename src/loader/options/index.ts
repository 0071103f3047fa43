// The loaders' options: one schema per loader, the defaults, the documented types, and the key read from astro:env.
export * as astroSecret from './astro-secret.js';
export * as options from './options.js';
export * as optionsDocs from './options-docs.js';
