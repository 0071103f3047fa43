// The stored state: what the loaders keep between builds (Astro's meta store, files in cacheDir) and the fingerprints that date it.
export * as cacheFile from './cache-file.js';
export * as fingerprint from './fingerprint.js';
export * as moves from './moves.js';
export * as state from './state.js';
export * as storeSeed from './store-seed.js';
export * as storeWriteHold from './store-write-hold.js';
