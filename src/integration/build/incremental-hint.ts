/**
 * Why Astro's incremental build restored no page (issue 38, item 5). Astro logs `(restored)` beside each page it
 * kept and nothing about the others; a theme whose component pulls Markdown in with `import.meta.glob`, rendered
 * with a random id, changes the code of every page on every build, and the incremental build renders everything
 * without a word. This compares the previous build's `incremental-build.json` (Astro's manifest in `cacheDir`)
 * with this build's, the way Astro decides (incremental.js canSkip), and names what defeated the cache: the
 * config or lockfile, a route's code (with the modules whose code changed, from incremental-modules.ts), the
 * pages' `cacheKey`s, or the content entries they render.
 */

/** What this module reads of Astro's manifest (version 1, Astro 7.2+). */
export interface IncrementalManifest {
  configHash?: string;
  lockfileHash?: string;
  routes?: Record<
    string,
    { dependencyHash?: string; paths?: Record<string, { cacheKey?: string; contentHashes?: Record<string, string> }> }
  >;
}

const first = (items: readonly string[], n = 3) =>
  items.slice(0, n).join(', ') + (items.length > n ? ` and ${items.length - n} more` : '');

/**
 * The line to log when the build could restore none of the pages of a route the previous build recorded (its
 * code changed), or none at all (the config, the lockfile, the keys or the content changed); undefined when
 * there is nothing to compare or nothing to say. `changedModules`: the modules (paths relative to the root) whose
 * code differs from the previous build's.
 */
export function incrementalHint(
  previous: IncrementalManifest | undefined,
  next: IncrementalManifest | undefined,
  changedModules: readonly string[],
): string | undefined {
  if (!previous?.routes || !next?.routes) return undefined;
  const pathsOf = (route: { paths?: Record<string, unknown> } | undefined) => Object.keys(route?.paths ?? {}).length;
  const recorded = Object.values(previous.routes).reduce((n, r) => n + pathsOf(r), 0);
  if (recorded === 0) return undefined;
  const reasonsLink =
    "Astro's reasons per page: compare `incremental-build.json` in the cache directory between two builds (each route's `dependencyHash`, each page's `cacheKey` and `contentHashes`).";
  if (previous.configHash !== next.configHash || previous.lockfileHash !== next.lockfileHash)
    return `The incremental build restored none of the ${recorded} page(s) the last build recorded: ${previous.configHash !== next.configHash ? "Astro's config" : 'the lockfile'} changed since, so Astro rendered every page once; the next build restores them.`;
  const codeChanged: string[] = [];
  let keyChanged = 0;
  const entriesChanged = new Set<string>();
  let restorable = 0;
  let lost = 0;
  for (const [component, route] of Object.entries(next.routes)) {
    const before = previous.routes[component];
    if (!before || pathsOf(before) === 0) continue;
    if (before.dependencyHash !== route.dependencyHash) {
      codeChanged.push(component);
      lost += pathsOf(before);
      continue;
    }
    for (const [path, entry] of Object.entries(route.paths ?? {})) {
      const old = before.paths?.[path];
      if (!old) continue;
      if (old.cacheKey !== entry.cacheKey) {
        keyChanged += 1;
        continue;
      }
      const changed = Object.entries(old.contentHashes ?? {}).filter(
        ([key, hash]) => entry.contentHashes?.[key] !== hash,
      );
      for (const [key] of changed) entriesChanged.add(key);
      if (changed.length === 0) restorable += 1;
    }
  }
  if (codeChanged.length) {
    const modules = changedModules.length
      ? ` The modules whose code differs from the last build's: ${first(changedModules)}. A module that renders differently on every build (a random id, a timestamp, Markdown pulled in by \`import.meta.glob\` and rendered with generated ids) defeats the cache on every build: make its output stable, or keep it out of the pages' imports.`
      : '';
    return `The incremental build restored none of the ${lost} page(s) of ${first(codeChanged)}: the code they import changed since the last build (Astro compares every module a page imports).${modules} ${reasonsLink}`;
  }
  if (restorable > 0) return undefined;
  const reasons: string[] = [];
  if (keyChanged) reasons.push(`${keyChanged} page(s) gave another \`cacheKey\` than last time.`);
  if (entriesChanged.size) reasons.push(`the content entries ${first([...entriesChanged])} render differently.`);
  if (reasons.length === 0) return undefined;
  return `The incremental build restored none of the ${recorded} page(s) the last build recorded: ${reasons.join(' ')} ${reasonsLink}`;
}
