import { siteOrigin, type SiteDefinition } from './accounts.js';
import type { ArticleRecord } from './articles.js';
import { htmlToText } from './html.js';
import type { KeywordRecord } from './keyword-data.js';
import { createRng, hashParts } from './random.js';

/** Audit, brief and digest payloads: plausible, deterministic in their input, no real analysis. */

export interface AuditInput {
  title?: string;
  excerpt?: string;
  content?: string;
  keyword?: string;
  language?: string;
}

export function auditScore(input: AuditInput): number {
  return 55 + (hashParts(JSON.stringify(input)) % 41);
}

export function auditResult(
  input: AuditInput,
  cacheHit: boolean,
): { score: number; suggestions: Array<{ type: string; message: string }>; cache_hit: boolean } {
  const content = input.content ?? '';
  const text = htmlToText(content);
  const suggestions: Array<{ type: string; message: string }> = [];
  if (!/<h2[\s>]/i.test(content))
    suggestions.push({ type: 'structure', message: 'Add at least two H2 sections to structure the article.' });
  if (text.split(' ').length < 300)
    suggestions.push({
      type: 'length',
      message: `The text has ${text ? text.split(' ').length : 0} words; aim for 800 or more.`,
    });
  if (input.keyword && !text.toLowerCase().includes(input.keyword.toLowerCase())) {
    suggestions.push({
      type: 'keyword',
      message: `The target keyword "${input.keyword}" does not appear in the body.`,
    });
  }
  if (!input.excerpt)
    suggestions.push({ type: 'meta', message: 'Write an excerpt of 120 to 160 characters for the meta description.' });
  if (!/<img\s/i.test(content))
    suggestions.push({ type: 'media', message: 'Add an illustration with a descriptive alt text.' });
  return { score: auditScore(input), suggestions, cache_hit: cacheHit };
}

const INTENTS = ['informational', 'commercial', 'transactional', 'navigational'] as const;

export function briefResult(keyword: string, language: string) {
  const rng = createRng(keyword.toLowerCase(), language, 'brief');
  const k = keyword.trim();
  return {
    intent: rng.pick(INTENTS),
    outline: [
      `What is ${k}?`,
      `Why ${k} matters`,
      `How to get started with ${k}`,
      `Common mistakes with ${k}`,
      `Tools and resources for ${k}`,
    ],
    entities: rng.sample([k, 'beginners', 'budget', 'equipment', 'routine', 'experts', 'checklist', 'costs'], 5),
    faq: [
      {
        question: `How long does it take to learn ${k}?`,
        answer: 'Most people see results after two to three weeks of regular practice.',
      },
      {
        question: `How much does ${k} cost?`,
        answer: 'Start with what you already have; the essentials cost less than you think.',
      },
    ],
    eeat_signals: [
      'Cite first-hand experience',
      'Name the author and their credentials',
      'Link to primary sources',
      'Show the date of the last update',
    ],
    language,
  };
}

function isoWeek(ms: number): string {
  const date = new Date(ms);
  const day = date.getUTCDay() || 7;
  // The ISO week belongs to the year of its Thursday.
  date.setUTCDate(date.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - yearStart) / 86_400_000 + 1) / 7);
  return `${date.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** The week ending with the site's newest publication, so seeded data always has something to show. */
export function weeklyDigest(site: SiteDefinition, articles: ArticleRecord[], keywords: KeywordRecord[]) {
  const newest = articles[0];
  const endMs = newest ? Date.parse(`${newest.publishedAt}T23:59:59Z`) : Date.UTC(2025, 5, 1);
  const recent = articles.filter((a) => Date.parse(`${a.publishedAt}T00:00:00Z`) > endMs - 7 * 86_400_000);
  const scores = recent.map((a) => auditScore({ title: a.title, content: a.content }));
  const movements = keywords
    .filter((k) => k.previous_position !== null && k.previous_position !== k.position)
    .map((k) => ({
      keyword: k.keyword,
      url: k.url,
      from: k.previous_position,
      to: k.position,
      change: (k.previous_position ?? k.position) - k.position,
    }));
  const alerts = movements
    .filter((m) => m.change <= -3)
    .map((m) => ({
      type: 'position_drop',
      severity: 'warning',
      message: `"${m.keyword}" fell from ${m.from} to ${m.to}.`,
    }));
  return {
    week: isoWeek(endMs),
    site: { id: site.id, domain: site.domain },
    publications: recent.map((a) => ({
      slug: a.slug,
      title: a.title,
      published_at: a.publishedAt,
      url: `${siteOrigin(site)}/blog/${a.slug}/`,
    })),
    average_audit_score: scores.length ? Math.round(scores.reduce((s, x) => s + x, 0) / scores.length) : null,
    position_movements: movements,
    alerts,
  };
}
