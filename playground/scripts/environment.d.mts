import type { Simulator, SimulatorOptions } from 'astro-content-publisher/simulator';

export declare const DEMO_ARTICLES: number;
export declare const DEMO_IMAGE_DOWNLOADS: number;
export declare function accountFromEnv(
  env?: Record<string, string | undefined>,
): { PUBLISHER_BASE_URL: string; PUBLISHER_API_KEY: string; PUBLISHER_SITE_ID: string } | undefined;
export declare function startDemoSimulator(
  options?: SimulatorOptions & { stateDir?: string; log?: (line: string) => void },
): Promise<{
  simulator: Simulator;
  siteId: number;
  env: Record<
    | 'PUBLISHER_BASE_URL'
    | 'PUBLISHER_API_KEY'
    | 'PUBLISHER_SITE_ID'
    | 'PLAYGROUND_MAX_REQUESTS'
    | 'PLAYGROUND_MAX_IMAGE_DOWNLOADS',
    string
  >;
}>;
