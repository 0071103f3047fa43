/**
 * Users, tokens, plans and sites of the simulated service. Fixed, so that tests and the README can name them.
 * Tokens are short readable strings (`btb_sim_pro_1`): a pre-stop hook flags long random `btb_` runs as leaked keys.
 */
export type PlanName = 'free' | 'solo' | 'pro' | 'agence';

export interface Plan {
  name: PlanName;
  apiAccess: boolean;
  /** Requests per hour under the first and second descriptions of the API. */
  rateLimit: { first: number; second: number };
  articlesPerMonth: number;
}

export const PLANS: Record<PlanName, Plan> = {
  free: { name: 'free', apiAccess: false, rateLimit: { first: 0, second: 0 }, articlesPerMonth: 3 },
  solo: { name: 'solo', apiAccess: false, rateLimit: { first: 0, second: 0 }, articlesPerMonth: 10 },
  pro: { name: 'pro', apiAccess: true, rateLimit: { first: 30, second: 60 }, articlesPerMonth: 30 },
  agence: { name: 'agence', apiAccess: true, rateLimit: { first: 200, second: 600 }, articlesPerMonth: 150 },
};

export interface UserDefinition {
  username: string;
  email: string;
  plan: PlanName;
  tokens: string[];
  siteIds: number[];
  /** Credits at start (used once the monthly quota is spent). */
  credits: number;
}

export const USERS: readonly UserDefinition[] = [
  {
    username: 'free-user',
    email: 'free@example.com',
    plan: 'free',
    tokens: ['btb_sim_free_1'],
    siteIds: [31],
    credits: 0,
  },
  {
    username: 'solo-user',
    email: 'solo@example.com',
    plan: 'solo',
    tokens: ['btb_sim_solo_1'],
    siteIds: [31],
    credits: 0,
  },
  {
    username: 'pro-user',
    email: 'pro@example.com',
    plan: 'pro',
    tokens: ['btb_sim_pro_1', 'btb_sim_pro_2'],
    siteIds: [12, 13, 14],
    credits: 2,
  },
  {
    username: 'agence-user',
    email: 'agence@example.com',
    plan: 'agence',
    tokens: ['btb_sim_agence_1'],
    siteIds: [21, 22],
    credits: 0,
  },
];

export interface SiteDefinition {
  id: number;
  name: string;
  domain: string;
  /** Attached to a remote CMS (the real field names a CMS product). */
  isCms: boolean;
  /** The remote CMS cannot be reached: CMS-backed endpoints answer 502. */
  cmsUnreachable: boolean;
  active: boolean;
}

export const SITES: readonly SiteDefinition[] = [
  { id: 12, name: 'Pro Blog', domain: 'pro-blog.example.com', isCms: false, cmsUnreachable: false, active: true },
  { id: 13, name: 'Pro Shop Journal', domain: 'site-13.example.com', isCms: true, cmsUnreachable: true, active: true },
  {
    id: 14,
    name: 'Old Pro Site (inactive)',
    domain: 'site-14.example.com',
    isCms: false,
    cmsUnreachable: false,
    active: false,
  },
  {
    id: 21,
    name: 'Agence Client One',
    domain: 'site-21.example.com',
    isCms: false,
    cmsUnreachable: false,
    active: true,
  },
  {
    id: 22,
    name: 'Agence Client Two',
    domain: 'site-22.example.com',
    isCms: true,
    cmsUnreachable: false,
    active: true,
  },
  { id: 31, name: 'Free Trial Site', domain: 'site-31.example.com', isCms: false, cmsUnreachable: false, active: true },
];

export function siteOrigin(site: SiteDefinition): string {
  return `https://${site.domain}`;
}

/** Every token the simulator knows (used by stats to report where a token appeared). */
export const ALL_TOKENS: readonly string[] = USERS.flatMap((user) => user.tokens);

/** The API's documented token format: the `btb_` prefix, then a visible, unspaced run. */
export const TOKEN_FORMAT = /^btb_[A-Za-z0-9_-]+$/;

/** The user of a token: a built-in token, or one of the Pro user's extra tokens (`extraProTokens`). */
export function findUserByToken(token: string, extraProTokens: readonly string[] = []): UserDefinition | undefined {
  const builtIn = USERS.find((user) => user.tokens.includes(token));
  if (builtIn) return builtIn;
  return extraProTokens.includes(token) ? USERS.find((user) => user.plan === 'pro') : undefined;
}

export function rateLimitFor(user: UserDefinition, description: 'first' | 'second', override?: number): number {
  const plan = PLANS[user.plan];
  if (!plan.apiAccess) return 0;
  return override ?? plan.rateLimit[description];
}
