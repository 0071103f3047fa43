// The loaders of one build share their detail answers (detail-exchange.ts): which answer a loader may take.
import { describe, expect, it } from 'vitest';
import type { ArticleDetail } from '../../src/client/index.js';
import { exchangedDetail, type DetailRequest } from '../../src/loader/detail-exchange.js';

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

describe('exchangedDetail', () => {
  it('takes an answer asked for after its list call, in any language, without asking', async () => {
    site += 1;
    const listedSince = Date.now() - 1000;
    let asked = 0;
    const ask = async () => {
      asked += 1;
      return detail('fr');
    };
    await exchangedDetail(request({ language: 'en' }), ask);
    expect(await exchangedDetail(request({ listedSince }), ask)).toEqual(detail('fr'));
    expect(asked).toBe(1);
  });

  it('an earlier answer of the same round: taken when in another language, asked again when in its own', async () => {
    site += 1;
    const roundSince = Date.now() - 1000;
    let asked = 0;
    const ask = (language: string) => async () => {
      asked += 1;
      return detail(language);
    };
    await exchangedDetail(request({ language: 'en', roundSince }), ask('en'));
    const later = Date.now() + 1;
    // The fr loader listed after the en loader's call: the English answer tells it enough.
    expect(await exchangedDetail(request({ listedSince: later, roundSince }), ask('en'))).toEqual(detail('en'));
    expect(asked).toBe(1);
    // An en loader listing after that call asks again: the article may have changed since.
    expect(await exchangedDetail(request({ language: 'en', listedSince: later, roundSince }), ask('en'))).toEqual(
      detail('en'),
    );
    expect(asked).toBe(2);
  });

  it('an answer of an earlier round, of another site or key, or a failed call is not taken', async () => {
    site += 1;
    let asked = 0;
    const ask = async () => {
      asked += 1;
      return detail('en');
    };
    await exchangedDetail(request(), ask);
    const later = Date.now() + 1;
    await exchangedDetail(request({ listedSince: later, roundSince: later }), ask);
    expect(asked).toBe(2);
    await exchangedDetail(request({ siteId: site + 1000 }), ask);
    await exchangedDetail(request({ apiKey: 'other' }), ask);
    expect(asked).toBe(4);

    site += 1;
    const failing = exchangedDetail(request(), async () => {
      throw new Error('budget spent');
    });
    const waiting = exchangedDetail(request(), ask);
    await expect(failing).rejects.toThrow('budget spent');
    expect(await waiting).toEqual(detail('en'));
    expect(asked).toBe(5);
  });
});
