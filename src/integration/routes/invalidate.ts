// Injected route (`publisher({ invalidate: true })`, on demand): POST { tags } with the bearer token purges
// Astro's route cache and this process's own copies by tag. See ../invalidate/invalidate-handler.ts.
import type { APIRoute } from 'astro';
import { readSecret } from '../../loader/options/astro-secret.js';
import { invalidateLocally } from '../../loader/process/local-invalidation.js';
import { handleInvalidate, INVALIDATE_TOKEN_ENV } from '../invalidate/invalidate-handler.js';

export const ALL: APIRoute = async (context) =>
  handleInvalidate(context, {
    token: await readSecret(INVALIDATE_TOKEN_ENV),
    invalidateLocally,
    log: (message) => console.error(message),
  });
