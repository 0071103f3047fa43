import { siteOrigin, type SiteDefinition } from './accounts.js';
import { bankFor, LANGUAGES } from './corpus.js';
import { slugify } from './html.js';
import { createRng } from './random.js';
import { isoSeconds, SEED_ANCHOR_MS } from './articles.js';

export interface KeywordRecord {
  keyword: string;
  position: number;
  previous_position: number | null;
  url: string;
  volume: number;
  updated_at: string;
}

export interface KeywordState {
  records: KeywordRecord[];
  /** Snapshots taken so far: each one moves positions differently, but deterministically. */
  snapshots: number;
}

const PER_SITE = 8;

export function seedKeywords(site: SiteDefinition, seed: number): KeywordState {
  const rng = createRng(seed, site.id, 'keywords');
  const topics = LANGUAGES.flatMap((language) => bankFor(language).topics);
  const records = rng.sample(topics, PER_SITE).map((topic) => {
    const position = rng.int(1, 60);
    return {
      keyword: topic,
      position,
      previous_position: rng.next() < 0.15 ? null : Math.max(1, position + rng.int(-5, 5)),
      url: `${siteOrigin(site)}/blog/${slugify(topic)}/`,
      volume: rng.int(2, 90) * 10,
      updated_at: isoSeconds(SEED_ANCHOR_MS - rng.int(0, 6) * 86_400_000),
    };
  });
  return { records, snapshots: 0 };
}

/** A search-results crawl: every position moves by up to three places (never above 1 or below 100). */
export function takeSnapshot(state: KeywordState, site: SiteDefinition, seed: number, nowMs: number): KeywordRecord[] {
  state.snapshots += 1;
  const rng = createRng(seed, site.id, 'snapshot', state.snapshots);
  for (const record of state.records) {
    record.previous_position = record.position;
    record.position = Math.min(100, Math.max(1, record.position + rng.int(-3, 3)));
    record.updated_at = isoSeconds(nowMs);
  }
  return state.records.map((record) => ({ ...record }));
}
