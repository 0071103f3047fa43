/** Where the README explains how to keep the store between builds on CI and build hosts. */
export const DEPLOY_DOCS = 'https://www.npmjs.com/package/astro-content-publisher#deploy-keep-the-store-between-builds';

/**
 * The line a CI build logs when it started from an empty store: on a runner or a host's build machine,
 * `node_modules/.astro` is gone unless it is cached, so every build is a cold one (1 + N requests, which
 * a Pro plan cannot pay for a large site) instead of one request. Undefined when there is nothing to say.
 */
export function emptyStoreNotice(input: {
  ci: boolean;
  storedAtStart: number;
  total: number;
  requests: number;
}): string | undefined {
  if (!input.ci || input.storedAtStart > 0 || input.total === 0) return undefined;
  return (
    `CI: this build started from an empty store (node_modules/.astro was not restored), so it spent ${input.requests} ` +
    `request(s) loading ${input.total} article(s) where a kept store spends 1 when nothing changed. ` +
    `Cache node_modules/.astro between builds: ${DEPLOY_DOCS}`
  );
}

/** Whether this process runs on CI, as CI services announce it (`CI=true`, `CI=1`). */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}
