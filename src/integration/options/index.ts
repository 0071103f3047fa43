// publisher(options): one schema, its documented types, its resolution against the Astro config and PUBLISHER_* variables.
export * as envFiles from './env-files.js';
export * as envSchema from './env-schema.js';
export * as imageHosts from './image-hosts.js';
export * as options from './options.js';
export * as optionsDocs from './options-docs.js';
export * as resolveOptions from './resolve-options.js';
