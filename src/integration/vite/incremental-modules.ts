/**
 * The modules of the pages' bundle and a hash of each one's code, recorded by a Vite plugin in the environment
 * Astro prerenders in, so that a build whose incremental cache restored nothing can name the modules that changed
 * (incremental-hint.ts). Kept between builds in the cache directory; only with `experimental.incrementalBuild`.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { incrementalHint, type IncrementalManifest } from '../build/incremental-hint.js';

type ModuleHashes = Record<string, string>;

const ASSET_HANDLES = /__ASTRO_ASSET_IMAGE__[\w$]+__|__VITE_ASSET__[\w$]+__|import\.meta\.ROLLDOWN_FILE_URL_[\w$]+/g;

export interface ModuleHashesPlugin {
  name: string;
  applyToEnvironment(environment: { name: string }): boolean;
  generateBundle(this: {
    getModuleIds(): IterableIterator<string>;
    getModuleInfo(id: string): { code?: string | null } | null;
  }): void;
}

/** Fills `into` with this build's module hashes (the modules under `root()`, by their path relative to it). */
export function moduleHashesPlugin(root: () => URL | undefined, into: ModuleHashes): ModuleHashesPlugin {
  return {
    name: 'astro-content-publisher:module-hashes',
    applyToEnvironment: (environment) => environment.name === 'prerender',
    generateBundle() {
      const at = root();
      if (at === undefined) return;
      const base = fileURLToPath(at);
      for (const id of this.getModuleIds()) {
        const code = this.getModuleInfo(id)?.code;
        const path = id.split('?')[0]!;
        // The blog's own modules and its packages' (not the caches': the loader's images change with the content).
        if (
          !code ||
          !path.startsWith(base) ||
          /^(\.astro|\.cache|node_modules\/\.astro)\//.test(path.slice(base.length))
        )
          continue;
        // Asset references are handles that differ between builds for the same bytes (Astro resolves them too).
        const stable = code.replace(ASSET_HANDLES, '__ASSET__');
        into[path.slice(base.length)] = createHash('sha1').update(stable).digest('base64url');
      }
    },
  };
}

const hashesFile = (cacheDir: URL) => new URL('astro-content-publisher/module-hashes.json', cacheDir);

/** Astro's incremental manifest in the cache directory, or undefined. */
export function readIncrementalManifest(cacheDir: URL): IncrementalManifest | undefined {
  const file = new URL('incremental-build.json', cacheDir);
  try {
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as IncrementalManifest) : undefined;
  } catch {
    return undefined;
  }
}

/** The modules whose code differs from the previous build's record; this build's record replaces it. */
export function changedModules(cacheDir: URL, now: ModuleHashes): string[] {
  const file = hashesFile(cacheDir);
  let before: ModuleHashes = {};
  try {
    if (existsSync(file)) before = JSON.parse(readFileSync(file, 'utf8')) as ModuleHashes;
  } catch {
    before = {};
  }
  if (Object.keys(now).length === 0) return [];
  mkdirSync(new URL('./', file), { recursive: true });
  writeFileSync(file, JSON.stringify(now));
  return Object.keys(now)
    .filter((id) => before[id] !== undefined && before[id] !== now[id])
    .sort();
}

/**
 * The integration's part: the Vite plugin, the previous manifest read when the build starts (Astro writes the
 * next one before astro:build:done), and the line logged when the build restored nothing.
 */
export function incrementalHints() {
  const hashes: ModuleHashes = {};
  let cacheDir: URL | undefined;
  let root: URL | undefined;
  let previous: IncrementalManifest | undefined;
  return {
    plugin: moduleHashesPlugin(() => root, hashes),
    /** At astro:config:done: only builds with `experimental.incrementalBuild` are watched. */
    configure(config: { root: URL; cacheDir: URL; experimental?: { incrementalBuild?: boolean } }, isBuild: boolean) {
      const on = isBuild && config.experimental?.incrementalBuild === true;
      cacheDir = on ? config.cacheDir : undefined;
      root = config.root;
    },
    start() {
      previous = cacheDir ? readIncrementalManifest(cacheDir) : undefined;
    },
    finish(logger: { info(message: string): void }) {
      if (!cacheDir) return;
      const modules = changedModules(cacheDir, hashes);
      const line = incrementalHint(previous, readIncrementalManifest(cacheDir), modules);
      if (line) logger.info(line);
    },
  };
}
