import { stat } from 'node:fs/promises';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Folders in the order their files should start: those that build several sites, install packages or drive a
// browser first (the last long file to start decides when the suite ends), the unit tests last.
const FOLDERS = [
  'themes',
  'docs',
  'pack',
  'model-site',
  'e2e',
  'faults',
  'astro',
  'watch',
  'cli',
  'model',
  'security',
  'client',
  'simulator',
  'unit',
];

/**
 * Vitest starts the longest files first by the durations it recorded in an earlier run (in node_modules/.vite).
 * A fresh clone has none, and vitest then goes by file size, which put the 34-second site model and the 14-second
 * reference check among the last files (571 s against 533 s). Without recorded durations, this goes by folder
 * (above), then by size.
 */
export default class FoldersFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    if (files.every((spec) => this.ctx.cache.getTestSpecificationResult(spec))) return super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const folder = relative(spec.project.config.root, spec.moduleId).split(/[\\/]/)[1] ?? '';
      const at = FOLDERS.indexOf(folder);
      return at === -1 ? FOLDERS.length : at;
    };
    const sizes = new Map(
      await Promise.all(files.map(async (spec) => [spec, (await stat(spec.moduleId)).size] as const)),
    );
    return [...files].sort((a, b) => rank(a) - rank(b) || sizes.get(b)! - sizes.get(a)!);
  }
}
