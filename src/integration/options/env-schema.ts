import { envField } from 'astro/config';

type EnvSchema = Record<string, ReturnType<typeof envField.string>>;

/**
 * The package's variables in Astro's env schema, so `.env` files and the host's environment reach the loaders
 * as Astro users expect: the key as a server secret (never inlined in a bundle, read with `getSecret` at
 * request time), the base URL and site id as server variables. All optional: a site may pass them as options.
 * A variable the user declared already is left as declared. Plain optional strings: the loaders validate the
 * values with messages that name the variable and the fix, which Astro's generic validation would pre-empt.
 */
export function publisherEnvSchema(declared: Record<string, unknown> | undefined): EnvSchema {
  const fields: EnvSchema = {
    PUBLISHER_API_KEY: envField.string({ context: 'server', access: 'secret', optional: true }),
    PUBLISHER_BASE_URL: envField.string({ context: 'server', access: 'public', optional: true }),
    PUBLISHER_SITE_ID: envField.string({ context: 'server', access: 'public', optional: true }),
    // The invalidation endpoint's shared secret (publisher({ invalidate })), read per request like the key.
    PUBLISHER_INVALIDATE_TOKEN: envField.string({ context: 'server', access: 'secret', optional: true }),
  };
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !declared || !(key in declared)));
}
