import { assetsFolder, type EmittedAsset } from '../build/asset-refs.js';

/** An output asset as Rollup and Rolldown describe it (`names` since Rollup 4.23; `name` before). */
interface BundleAsset {
  type: string;
  fileName: string;
  names?: string[];
  name?: string;
}

export interface EmittedAssetsPlugin {
  name: string;
  generateBundle(options: unknown, bundle: Record<string, BundleAsset>): void;
}

/**
 * Records the files of the assets folder that the bundler writes, in every Vite environment (Astro emits
 * images in the server build, then moves them to the client's output), with the names of the sources each
 * holds: several when Vite wrote sources of equal bytes once. Read at `astro:build:done` (kept-assets.ts).
 */
export function emittedAssetsPlugin(folder: () => string, into: EmittedAsset[]): EmittedAssetsPlugin {
  return {
    name: 'astro-content-publisher:emitted-assets',
    generateBundle(_options, bundle) {
      const prefix = `${assetsFolder(folder())}/`;
      for (const output of Object.values(bundle)) {
        if (output.type !== 'asset' || !output.fileName.startsWith(prefix)) continue;
        const file = output.fileName.slice(prefix.length);
        const sources = output.names ?? (output.name === undefined ? [] : [output.name]);
        if (!file.includes('/') && sources.length > 0) into.push({ file, sources: [...sources] });
      }
    },
  };
}
