/** Astro's `image.remotePatterns` entry (the shape Astro's config accepts). */
export interface ServiceImagePattern {
  protocol: string;
  hostname: string;
  port?: string;
}

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
  return [{ protocol, hostname, ...(origin.port ? { port: origin.port } : {}) }];
}
