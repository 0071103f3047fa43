// Astro's virtual module, typed only as far as `readSecret` uses it (Astro's own types need the user's env.d.ts).
declare module 'astro:env/server' {
  export function getSecret(key: string): string | undefined;
}
