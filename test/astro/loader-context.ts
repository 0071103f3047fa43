/**
 * A minimal in-memory LoaderContext, so the loaders can run many scenarios against the real simulator over
 * HTTP in milliseconds (the real Astro builds cover the integration in loader-build/loader-budget tests).
 */
import type { LoaderContext } from 'astro/loaders';
import type { z } from 'zod';
import { shortHash } from '../../src/loader/state/fingerprint.js';

export interface FakeContext {
  context: LoaderContext;
  entries: Map<
    string,
    {
      id: string;
      data: Record<string, unknown>;
      rendered?: { html: string; metadata?: { headings?: unknown[] } };
      digest?: string | number;
    }
  >;
  meta: Map<string, string>;
  logs: string[];
  /** Log lines since the last call. */
  take(): string[];
}

export function fakeContext(schema: z.ZodType, existing?: FakeContext): FakeContext {
  const entries = existing?.entries ?? new Map();
  const meta = existing?.meta ?? new Map<string, string>();
  const logs: string[] = existing?.logs ?? [];
  let seen = logs.length;
  const log = (level: string) => (message: string) => void logs.push(`${level} ${message}`);
  const context = {
    collection: 'articles',
    store: {
      get: (id: string) => entries.get(id),
      entries: () => [...entries.entries()],
      values: () => [...entries.values()],
      keys: () => [...entries.keys()],
      set: (entry: { id: string }) => {
        entries.set(entry.id, structuredClone(entry) as never);
        return true;
      },
      delete: (id: string) => void entries.delete(id),
      clear: () => entries.clear(),
      has: (id: string) => entries.has(id),
      addModuleImport: () => undefined,
    },
    meta: {
      get: (k: string) => meta.get(k),
      set: (k: string, v: string) => void meta.set(k, v),
      has: (k: string) => meta.has(k),
      delete: (k: string) => void meta.delete(k),
    },
    logger: {
      info: log('info'),
      warn: log('warn'),
      error: log('error'),
      debug: () => undefined,
      fork: () => context.logger,
      label: 'test',
    },
    config: {},
    parseData: async ({ data }: { data: unknown }) => schema.parse(data),
    renderMarkdown: async () => {
      throw new Error('not used by these loaders');
    },
    generateDigest: (data: unknown) => shortHash(typeof data === 'string' ? data : JSON.stringify(data)),
  } as unknown as LoaderContext;
  return {
    context,
    entries,
    meta,
    logs,
    take() {
      const out = logs.slice(seen);
      seen = logs.length;
      return out;
    },
  };
}
