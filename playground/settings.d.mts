export declare function playgroundSettings(env?: Record<string, string | undefined>): {
  siteId: number;
  baseUrl: string | undefined;
  site: string;
  budget: { maxRequests: number } | undefined;
  images: { maxDownloads: number } | undefined;
};
