/** Astro's `image.remotePatterns` entry (the shape Astro's config accepts). */
export interface ServiceImagePattern {
  protocol: string;
  hostname: string;
  port: string;
}

const DEFAULT_PORTS: Readonly<Record<string, string>> = { 'http:': '80', 'https:': '443' };

/**
 * The remote pattern that lets Astro (and the loader's image step, which reads the same list) fetch images
 * from the service's own origin: exact protocol, host and port, any path. Nothing when the user opted out
 * or when their own config already allows that origin (no duplicate entry in their resolved config).
 */
export function serviceImagePatterns(
  serviceOrigin: string,
  allow: boolean,
  existing: {
    domains?: readonly string[];
    remotePatterns?: ReadonlyArray<{ protocol?: string; hostname?: string; port?: string; pathname?: string }>;
  },
): ServiceImagePattern[] {
  if (!allow) return [];
  const origin = new URL(serviceOrigin);
  const protocol = origin.protocol.replace(/:$/, '');
  const hostname = origin.hostname.replace(/^\[|\]$/g, '');
  if (existing.domains?.includes(hostname)) return [];
  const same = existing.remotePatterns?.some(
    (p) =>
      p.hostname === hostname &&
      (p.protocol ?? protocol) === protocol &&
      (p.port ?? origin.port) === origin.port &&
      (p.pathname === undefined || p.pathname === '/**'),
  );
  if (same) return [];
  // Always a port: a pattern without one matches every port of the host, so any service on that machine
  // would be fetched at build time and proxied by Astro's /_image. A default-port origin names its default
  // port; Astro's own matcher then allows no remote URL of it (an absent port reads as ''), while the
  // loader's matcher (html/images.ts) reads the default port, so its images are still localised.
  return [{ protocol, hostname, port: origin.port || DEFAULT_PORTS[origin.protocol] || '' }];
}
