import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';

const PREFIX = 'PUBLISHER_';

/**
 * Copies the package's `PUBLISHER_*` variables from the project's `.env` files into `process.env` when the
 * environment does not set them already. Astro reads `.env` for `astro:env` and `import.meta.env`, but the
 * content layer runs the loaders (which read `process.env`) before Vite has copied anything there, so without
 * this a key kept in `.env` reached `getSecret` but not the build-time loader. Same files and precedence as
 * Vite: `.env.<mode>.local` > `.env.<mode>` > `.env.local` > `.env`, and the real environment wins over all.
 * Only `PUBLISHER_*` names: the rest of the file is Astro's business. Returns the names it set.
 */
export function loadPublisherEnvFiles(
  envDir: URL | string,
  mode: string,
  env: NodeJS.ProcessEnv = process.env,
): string[] {
  const dir = typeof envDir === 'string' ? envDir : fileURLToPath(envDir);
  const set: string[] = [];
  for (const name of [`.env.${mode}.local`, `.env.${mode}`, '.env.local', '.env']) {
    let text: string;
    try {
      text = readFileSync(join(dir, name), 'utf8');
    } catch {
      continue; // an absent file is the normal case
    }
    for (const [key, value] of Object.entries(parseEnv(text))) {
      if (!key.startsWith(PREFIX) || env[key] !== undefined || value === undefined) continue;
      env[key] = value;
      set.push(key);
    }
  }
  return set;
}
