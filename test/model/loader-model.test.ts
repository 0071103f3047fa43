/**
 * The loader model (loader-model-run.ts) under the variants without a real rate limit: feeds, sitemaps, lists,
 * statuses, languages and CDN copies as API.md leaves them open. Those with a real limit run beside this file, in
 * loader-model-limit.test.ts. Replay one variant: MODEL_VARIANT="<part of its name>" MODEL_SEED=<seed> npm run test:model.
 */
import { describe, expect, it } from 'vitest';
import { everyKind } from './loader-coverage.js';
import { describeLoaderModel } from './loader-model-run.js';
import { openingKinds } from './loader-opening.js';
import { MODEL_VARIANTS } from './loader-variants.js';

describe("the variants' openings", () => {
  it('bring, between the two files, every change, every fault of every endpoint, a storm and a kill', () => {
    const brought = openingKinds(MODEL_VARIANTS);
    expect(everyKind(MODEL_VARIANTS).filter((kind) => !brought.includes(kind))).toEqual([]);
  });
});

describeLoaderModel('services as API.md leaves them open', (variant) => variant.rateLimit === undefined);
