// Docs on hover: every public option, as the published declaration files describe it to an editor, has a
// JSDoc comment with its `@default` (or `@required` when it has none and must be given). Read from dist/
// with the TypeScript compiler, walking into nested option objects (sitemap, budget, sanitize, trigger...).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));

/** The public options types, by the declaration file a user's editor reads them from. */
const ROOTS: Record<string, string[]> = {
  'index.d.ts': ['PublisherOptions', 'SitemapOptions', 'RssOptions', 'DevRefreshOptions'],
  'loader/index.d.ts': ['ArticlesLoaderOptions', 'DataLoaderOptions', 'LiveArticlesLoaderOptions'],
  'client/index.d.ts': ['ClientOptions'],
  'html/index.d.ts': ['SanitizeOptions'],
  'watch/index.d.ts': ['WatchOptionsInput'],
  'integration/rss-handler.d.ts': ['RssHandlerOptions'],
};

interface Finding {
  /** `PublisherOptions.sitemap.path` */
  option: string;
  problem?: string;
}

/** Checks every property of the named types (and of the documented option objects they hold). */
function checkDeclarations(roots: Record<string, string[]>, base: string): Finding[] {
  const files = Object.keys(roots).map((file) => join(base, file));
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];

  const isOwnInterface = (type: ts.Type) =>
    (type.getSymbol()?.getDeclarations() ?? []).some(
      (d) => ts.isInterfaceDeclaration(d) && d.getSourceFile().fileName.startsWith(base),
    );

  const walk = (type: ts.Type, path: string, seen: Set<ts.Type>) => {
    if (seen.has(type)) return;
    const inner = new Set(seen).add(type);
    for (const prop of checker.getPropertiesOfType(type)) {
      const option = `${path}.${prop.name}`;
      const docs = ts.displayPartsToString(prop.getDocumentationComment(checker)).trim();
      const tags = prop.getJsDocTags(checker).map((tag) => tag.name);
      const optional = (prop.flags & ts.SymbolFlags.Optional) !== 0;
      let problem: string | undefined;
      if (docs === '') problem = 'no JSDoc';
      else if (optional && !tags.includes('default')) problem = 'optional without @default';
      else if (!optional && !tags.includes('default') && !tags.includes('required'))
        problem = 'required without @required';
      findings.push(problem ? { option, problem } : { option });
      const propType = checker.getNonNullableType(checker.getTypeOfSymbol(prop));
      for (const member of propType.isUnion() ? propType.types : [propType]) {
        if (isOwnInterface(member)) walk(member, option, inner);
      }
    }
  };

  for (const [file, names] of Object.entries(roots)) {
    const source = program.getSourceFile(join(base, file));
    if (!source) throw new Error(`${file} was not found: run npm run build first`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const exports = moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : [];
    for (const name of names) {
      let symbol = exports.find((s) => s.name === name);
      if (!symbol) {
        findings.push({ option: name, problem: `not exported from ${file}` });
        continue;
      }
      if (symbol.flags & ts.SymbolFlags.Alias) symbol = checker.getAliasedSymbol(symbol);
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      if (!isOwnInterface(type))
        findings.push({
          option: name,
          problem: 'not a documented interface (a type derived from a schema loses its docs)',
        });
      walk(type, name, new Set());
    }
  }
  return findings;
}

describe('option docs in the published declaration files', () => {
  const findings = checkDeclarations(ROOTS, DIST);

  it('every public option has JSDoc with @default (or @required)', () => {
    console.log(`${findings.length} option properties checked:\n${findings.map((f) => f.option).join('\n')}`);
    expect(findings.filter((f) => f.problem)).toEqual([]);
  });

  it('walks into the nested option objects of every options type', () => {
    const options = findings.map((f) => f.option);
    for (const nested of [
      'PublisherOptions.siteId',
      'PublisherOptions.sitemap.maxUrlsPerFile',
      'PublisherOptions.devRefresh.pollIntervalMs',
      'ArticlesLoaderOptions.budget.reserve',
      'ArticlesLoaderOptions.sanitize.allowedTags',
      'LiveArticlesLoaderOptions.apiKey',
      'ClientOptions.baseUrl',
      'WatchOptionsInput.trigger.timeoutMs',
      'RssHandlerOptions.title',
    ]) {
      expect(options).toContain(nested);
    }
    expect(options.length).toBeGreaterThan(90);
  });

  describe('the check itself', () => {
    const dir = mkdtempSync(join(tmpdir(), 'option-docs-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('reports an option without @default, an undocumented one and a type derived from a schema', () => {
      writeFileSync(
        join(dir, 'index.d.ts'),
        [
          'export interface Nested {',
          '  /** Documented, but no default. */',
          '  depth?: number;',
          '}',
          'export interface Options {',
          '  /**',
          '   * Fine.',
          '   * @default 1',
          '   */',
          '  good?: number;',
          '  bare?: string;',
          '  /** Must be given. */',
          '  needed: string;',
          '  /**',
          '   * Nested options.',
          '   * @default {}',
          '   */',
          '  nested?: Nested | false;',
          '}',
          'export type Derived = { a?: number };',
          '',
        ].join('\n'),
      );
      expect(checkDeclarations({ 'index.d.ts': ['Options', 'Derived'] }, dir)).toEqual([
        { option: 'Options.good' },
        { option: 'Options.bare', problem: 'no JSDoc' },
        { option: 'Options.needed', problem: 'required without @required' },
        { option: 'Options.nested' },
        { option: 'Options.nested.depth', problem: 'optional without @default' },
        { option: 'Derived', problem: 'not a documented interface (a type derived from a schema loses its docs)' },
        { option: 'Derived.a', problem: 'no JSDoc' },
      ]);
    });
  });
});
