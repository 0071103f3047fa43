/**
 * Supply chain: the runtime dependencies that parse hostile input are at versions past their known
 * advisories, the lockfile is committed and matches package.json and node_modules, and no runtime
 * dependency runs an install script. (`npm audit --omit=dev --audit-level=high` is the CI step for new
 * advisories; it needs the registry's audit endpoint, so it is not part of this offline suite.)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const read = (path: string) =>
  JSON.parse(readFileSync(new URL(path, `file://${ROOT}`), 'utf8')) as Record<string, unknown>;
const pkg = read('package.json') as { dependencies: Record<string, string> };
const lock = read('package-lock.json') as {
  lockfileVersion: number;
  packages: Record<
    string,
    { version?: string; dev?: boolean; hasInstallScript?: boolean; dependencies?: Record<string, string> }
  >;
};
const installed = (name: string) => (read(`node_modules/${name}/package.json`) as { version: string }).version;

/** -1, 0 or 1, comparing x.y.z numerically (pre-release tags sort before the release). */
function compare(a: string, b: string): number {
  const parse = (v: string) => v.split('-')[0]!.split('.').map(Number);
  const [x, y] = [parse(a), parse(b)];
  for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) < (y[i] ?? 0) ? -1 : 1;
  return a.includes('-') === b.includes('-') ? 0 : a.includes('-') ? -1 : 1;
}

/**
 * The lowest versions past the advisories known when this was written:
 * - sanitize-html: 2.17.7 is the floor of DESIGN.md (earlier releases had XSS/ReDoS/information-exposure
 *   advisories, e.g. CVE-2021-26539, CVE-2022-25887, CVE-2024-21501);
 * - fast-xml-parser: prototype pollution (CVE-2023-26920, fixed 4.1.2), ReDoS (CVE-2023-34104, 4.2.4;
 *   CVE-2024-41818, 4.4.1) and the 5.x DOCTYPE entity advisories (fixed in 5.3.x): 5.3.6 or later;
 * - zod: ReDoS in the email check (CVE-2023-4316, fixed 3.22.3).
 */
const FLOORS: Record<string, string> = { 'sanitize-html': '2.17.7', 'fast-xml-parser': '5.3.6', zod: '3.22.3' };

describe('supply chain', () => {
  it('the parsers of hostile input are past their known advisories', () => {
    for (const [name, floor] of Object.entries(FLOORS)) {
      expect(compare(installed(name), floor), `${name} ${installed(name)} < ${floor}`).toBeGreaterThanOrEqual(0);
      expect(
        compare(lock.packages[`node_modules/${name}`]!.version!, floor),
        `${name} in the lockfile`,
      ).toBeGreaterThanOrEqual(0);
    }
    expect(compare('2.17.6', '2.17.7')).toBe(-1);
    expect(compare('5.12.1', '5.3.6')).toBe(1);
  });

  it('the lockfile is committed and agrees with package.json and node_modules', () => {
    expect(
      execFileSync('git', ['ls-files', '--error-unmatch', 'package-lock.json'], { cwd: ROOT, encoding: 'utf8' }).trim(),
    ).toBe('package-lock.json');
    expect(lock.lockfileVersion).toBeGreaterThanOrEqual(3);
    expect(lock.packages['']!.dependencies).toEqual(pkg.dependencies);
    for (const name of Object.keys(pkg.dependencies))
      expect(installed(name), name).toBe(lock.packages[`node_modules/${name}`]!.version);
  });

  it('the runtime dependency tree is small and runs no install script', () => {
    const runtime = Object.entries(lock.packages).filter(
      ([path, entry]) =>
        path !== '' &&
        entry.dev !== true &&
        !(entry as { devOptional?: boolean }).devOptional &&
        !(entry as { peer?: boolean }).peer,
    );
    const withScripts = runtime.filter(([, entry]) => entry.hasInstallScript).map(([path]) => path);
    expect(withScripts).toEqual([]);
    expect(runtime.length).toBeGreaterThan(3);
    expect(runtime.length).toBeLessThan(40);
  });
});
