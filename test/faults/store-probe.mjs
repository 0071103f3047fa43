// Preloaded (`node --import`) into the build that interrupted-build.test.ts kills: reports on stderr, with the
// build's own clock, each change the build makes to Astro's data store (a value set again unchanged, as the
// loader's store-write hold does every 200 ms, is not a change) and a tick of the build's timers every 50 ms.
// So the test can kill the build at a point it reached (Astro's 500 ms save debounce passed in the build since
// its last change), not after a wall-clock delay.
import { performance } from 'node:perf_hooks';
import { MutableDataStore } from '../../node_modules/astro/dist/content/mutable-data-store.js';

const set = MutableDataStore.prototype.set;
MutableDataStore.prototype.set = function (collection, key, value) {
  if (this.get(collection, key) !== value)
    process.stderr.write(`store-probe set ${performance.now().toFixed(0)} ${collection}\n`);
  return set.call(this, collection, key, value);
};
setInterval(() => process.stderr.write(`store-probe tick ${performance.now().toFixed(0)}\n`), 50).unref();
