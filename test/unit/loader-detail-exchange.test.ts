// The loaders of one build share their detail answers (detail-exchange.ts): what a loader may take from another.
import { describe, expect, it } from 'vitest';
import type { ArticleDetail } from '../../src/client/index.js';
import { exchangedDetail, type DetailRequest } from '../../src/loader/sync/detail-exchange.js';
import { shortHash } from '../../src/loader/state/fingerprint.js';

let site = 100;
/** A fresh site per test: answers are shared by service, key, site and slug. */
const request = (over: Partial<DetailRequest> = {}): DetailRequest => ({
  baseUrl: 'https://service.example.com',
  apiKey: 'key',
  siteId: site,
  slug: 'both',
  language: 'fr',
  listedSince: Date.now(),
  roundSince: Date.now(),
  ...over,
});
const detail = (language: string) => ({ slug: 'both', language, content: `<p>${language}</p>` }) as ArticleDetail;

/** An `ask` that counts its calls and answers in `language` (after `delayMs`). */
function asker(language: string, delayMs = 0) {
  const counted = {
    calls: 0,
    ask: async () => {
      counted.calls += 1;
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return detail(language);
    },
  };
  return counted;
}

describe('exchangedDetail', () => {
  it('an answer in another language than asked for (the service ignored ?language=): refused by the others without asking', async () => {
    site += 1;
    const roundSince = Date.now() - 1000;
    const en = asker('en');
    // The de loader asked for its article and got the en one: the service ignores the language asked for.
    expect(await exchangedDetail(request({ language: 'de', roundSince }), en.ask)).toEqual({ detail: detail('en') });
    const later = Date.now() + 1;
    expect(await exchangedDetail(request({ listedSince: later, roundSince }), en.ask)).toEqual({
      elsewhere: 'en',
      contentHash: shortHash(detail('en').content),
    });
    expect(en.calls).toBe(1);
  });

  it('an answer in the language asked for tells nothing about a call for another language: that loader asks', async () => {
    // Found by a trial on a real multilingual theme (the detail honours ?language=): the fr loader took the en
    // loader's answer as its own and refused its own article without a request.
    site += 1;
    const roundSince = Date.now() - 1000;
    const en = asker('en');
    const fr = asker('fr');
    expect(await exchangedDetail(request({ language: 'en', roundSince }), en.ask)).toEqual({ detail: detail('en') });
    const later = Date.now() + 1;
    expect(await exchangedDetail(request({ listedSince: later, roundSince }), fr.ask)).toEqual({
      detail: detail('fr'),
    });
    expect([en.calls, fr.calls]).toEqual([1, 1]);
    // In its own language, an earlier answer could predate an edit the loader's list shows: asked again.
    expect(await exchangedDetail(request({ language: 'en', listedSince: later, roundSince }), en.ask)).toEqual({
      detail: detail('en'),
    });
    expect(en.calls).toBe(2);
  });

  it('a call in flight for the same language, sent after its list call: its answer is taken', async () => {
    site += 1;
    const listedSince = Date.now() - 1000;
    const fr = asker('fr', 20);
    const first = exchangedDetail(request(), fr.ask);
    const second = exchangedDetail(request({ listedSince }), fr.ask);
    expect(await first).toEqual({ detail: detail('fr') });
    expect(await second).toEqual({ detail: detail('fr') });
    expect(fr.calls).toBe(1);
    // A call that asked for no language answers what a call for fr gets only by chance: fr asks.
    site += 1;
    const none = exchangedDetail(request({ language: undefined }), fr.ask);
    const mine = exchangedDetail(request({ listedSince }), fr.ask);
    await Promise.all([none, mine]);
    expect(fr.calls).toBe(3);
  });

  it("an answer the asking loader refused: taken, once, by its language's loader of the same round", async () => {
    // Astro starts the loaders in no fixed order: fr's turn came first in one CI run, and en asked again for the
    // answer fr had just refused (3 detail calls for 2 answers).
    site += 1;
    const roundSince = Date.now() - 1000;
    const en = asker('en');
    expect(await exchangedDetail(request({ language: 'fr', roundSince }), en.ask)).toEqual({ detail: detail('en') });
    const listedSince = Date.now() + 1;
    expect(await exchangedDetail(request({ language: 'en', listedSince, roundSince }), en.ask)).toEqual({
      detail: detail('en'),
    });
    expect(en.calls).toBe(1);
    // Taken once (the body is let go): another en loader asks; a loader of a later round asks too.
    await exchangedDetail(request({ language: 'en', listedSince, roundSince }), en.ask);
    expect(en.calls).toBe(2);
    site += 1;
    await exchangedDetail(request({ language: 'fr', roundSince }), en.ask);
    const later = Date.now() + 1;
    await exchangedDetail(request({ language: 'en', listedSince: later, roundSince: later }), en.ask);
    expect(en.calls).toBe(4);
  });

  it('not taken: an earlier round, another site or key, a loader without a language, a failed call', async () => {
    site += 1;
    const en = asker('en');
    await exchangedDetail(request({ language: 'en' }), en.ask);
    const later = Date.now() + 1;
    await exchangedDetail(request({ listedSince: later, roundSince: later }), en.ask);
    await exchangedDetail(request({ siteId: site + 1000 }), en.ask);
    await exchangedDetail(request({ apiKey: 'other' }), en.ask);
    await exchangedDetail(request({ language: undefined }), en.ask);
    expect(en.calls).toBe(5);

    site += 1;
    const failing = exchangedDetail(request(), async () => {
      throw new Error('budget spent');
    });
    const waiting = exchangedDetail(request({ listedSince: Date.now() - 1000 }), en.ask);
    await expect(failing).rejects.toThrow('budget spent');
    // Its own call's answer (the caller refuses a detail in another language itself).
    expect(await waiting).toEqual({ detail: detail('en') });
    expect(en.calls).toBe(6);
  });
});
