// The Vite plugins the integration adds: the routes' settings module, the package kept bundled, emitted assets, the store.
export * as dataStoreFile from './data-store-file.js';
export * as emittedAssets from './emitted-assets.js';
export * as incrementalModules from './incremental-modules.js';
export * as noExternalPlugin from './no-external-plugin.js';
export * as virtualModule from './virtual-module.js';
