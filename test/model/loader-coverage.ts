/**
 * What reached a build in the loader model, per command kind: a service change made before a build, a fault that
 * applied to one of its requests, a kill that really happened inside it. Printed after the run and asserted, so a
 * seed that stops covering a kind fails instead of passing without testing it.
 */
import { ROUTES, type Endpoint } from '../faults/helpers.js';
import { kindsOf } from './loader-faults.js';
import { STATUSES } from './loader-truth.js';
import type { ModelVariant } from './loader-variants.js';

const counts = new Map<string, number>();
let sequences = 0;
let longest = 0;
let commandsSeen = 0;

export function count(kind: string, n = 1): void {
  counts.set(kind, (counts.get(kind) ?? 0) + n);
}

/** One generated sequence, of this many commands. */
export function sequence(length: number): void {
  sequences += 1;
  commandsSeen += length;
  longest = Math.max(longest, length);
}

/**
 * Every kind the model knows, given the variants it has: each change, each fault of each endpoint, a storm, a
 * kill, each variant. Between them, the variants' openings bring every one (asserted in loader-model.test.ts).
 */
export function everyKind(variants: ModelVariant[]): string[] {
  const changes = [
    'publish',
    'publish non-ASCII',
    'edit body',
    'edit title',
    'unpublish',
    'republish',
    'rename',
    ...STATUSES.map((s) => `status ${s}`),
  ];
  if (variants.some((v) => v.service.sharedSlugs)) changes.push('language variant');
  if (variants.some((v) => v.bulk)) changes.push('past 50 articles');
  const faults = (Object.keys(ROUTES) as Endpoint[]).flatMap((e) => kindsOf(e).map((k) => `fault ${e} ${k}`));
  return [...changes, ...faults, 'storm', 'killed build', ...variants.map((v) => `variant ${v.name}`)];
}

/** A file's run starts counting from nothing (a test process may run both files of the model). */
export function resetCoverage(): void {
  counts.clear();
  sequences = 0;
  longest = 0;
  commandsSeen = 0;
}

/** The table, and the kinds of `needed` that no build reached. */
export function report(needed: string[]): { table: string; missing: string[]; longest: number } {
  const rows = [...new Set([...needed, ...counts.keys()])].sort();
  const width = Math.max(...rows.map((r) => r.length));
  const table = [
    `loader model: ${sequences} sequences, ${commandsSeen} commands generated (longest ${longest})`,
    ...rows.map((r) => `  ${r.padEnd(width)}  ${counts.get(r) ?? 0}`),
  ].join('\n');
  return { table, missing: needed.filter((k) => !counts.get(k)), longest };
}
