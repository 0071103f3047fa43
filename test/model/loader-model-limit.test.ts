/**
 * The loader model (loader-model-run.ts) under the variants with a real rate limit: 429s of the service's own
 * window, and every form of its reset and of Retry-After. A file of its own, so that its variants, which wait out
 * windows, run beside the others (loader-model.test.ts) in another process, with a blog's clock of their own.
 */
import { describeLoaderModel } from './loader-model-run.js';

describeLoaderModel('under a real rate limit', (variant) => variant.rateLimit !== undefined);
