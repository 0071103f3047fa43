// The reference in docs/reference/ is what the generator writes from the code (TypeDoc over the public entry
// points' JSDoc, and the CLI's --help texts): the JSDoc is the one description of every option, and a change
// to it that is not regenerated fails here with the command that fixes it.
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const committed = join(root, 'docs/reference');
const fresh = mkdtempSync(join(tmpdir(), 'acp-reference-'));
afterAll(() => rmSync(fresh, { recursive: true, force: true }));

function tree(dir: string): Map<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
  return new Map(
    files.map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return [path.slice(dir.length + 1), readFileSync(path, 'utf8')];
    }),
  );
}

describe('docs/reference', () => {
  it('is what `npm run docs:reference` writes from the code (regenerate and commit it when this fails)', async () => {
    await promisify(execFile)(process.execPath, [join(root, 'scripts/reference.mjs'), '--out', fresh], { cwd: root });
    const want = tree(fresh);
    const have = tree(committed);
    expect([...have.keys()].sort()).toEqual([...want.keys()].sort());
    for (const [file, text] of want) expect(have.get(file), `docs/reference/${file}`).toBe(text);
    // The option pages hold the option text (not only type names): a sample of each entry point's options.
    expect(want.get('astro-content-publisher/loaders.md')).toContain(
      'The most authenticated requests this loader may send in one build',
    );
    expect(want.get('cli.md')).toContain('## watch');
  }, 600_000);
});
