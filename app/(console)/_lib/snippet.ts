import { headers } from 'next/headers';
import { config } from '@/lib/core/config';

/**
 * The tracking snippet a site pastes into its pages. The markup lives here only: the snippet
 * page and its copy button both render this string.
 */
export function trackingSnippet(origin: string, siteId: string): string {
  return `<script src="${origin}/t.js" data-site-id="${siteId}" async></script>`;
}

/** The origin visitors' browsers reach this app at: NEXTAUTH_URL when set, else the request's host. */
export async function publicOrigin(): Promise<string> {
  const configured = config().NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const h = await headers();
  const host = h.get('x-forwarded-host') ?? h.get('host') ?? 'localhost:3000';
  const proto = h.get('x-forwarded-proto')?.split(',')[0].trim() ?? 'http';
  return `${proto}://${host}`;
}
