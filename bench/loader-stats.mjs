// The loader's own share of a build, measured from outside it: the benchmark sites wrap their collection's
// loader with `measured()`, which times load() and the context calls the loader makes (store writes,
// Astro's schema validation, digests) and writes the figures to the file named by BENCH_LOADER_STATS.
import { writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

/** @param {import('astro/loaders').Loader} loader */
export function measured(loader) {
  const file = process.env.BENCH_LOADER_STATS;
  if (!file) return loader;
  return {
    ...loader,
    async load(ctx) {
      const stats = { loadMs: 0, storeSets: 0, storeSetMs: 0, storeDeletes: 0, parseData: 0, parseDataMs: 0 };
      Object.assign(stats, { digests: 0, digestMs: 0 });
      const timed = (fn, count, ms) =>
        function (...args) {
          const started = performance.now();
          stats[count] += 1;
          try {
            const result = fn.apply(this, args);
            if (result && typeof result.then === 'function')
              return result.finally(() => (stats[ms] += performance.now() - started));
            stats[ms] += performance.now() - started;
            return result;
          } catch (error) {
            stats[ms] += performance.now() - started;
            throw error;
          }
        };
      const store = new Proxy(ctx.store, {
        get(target, name) {
          const value = Reflect.get(target, name, target);
          if (name === 'set') return timed(value.bind(target), 'storeSets', 'storeSetMs');
          if (name === 'delete') return (...args) => ((stats.storeDeletes += 1), value.apply(target, args));
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      const wrapped = {
        ...ctx,
        store,
        parseData: timed(ctx.parseData, 'parseData', 'parseDataMs'),
        generateDigest: timed(ctx.generateDigest, 'digests', 'digestMs'),
      };
      const started = performance.now();
      try {
        await loader.load(wrapped);
      } finally {
        stats.loadMs = performance.now() - started;
        for (const key of Object.keys(stats)) stats[key] = Math.round(stats[key]);
        writeFileSync(file, JSON.stringify(stats));
      }
    },
  };
}
