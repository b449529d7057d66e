import { headers } from 'next/headers';
import { publicOrigin as productOrigin } from '@/lib/core/public-url';

/**
 * The product's public origin for what a console page or action shows or mails (the tracking
 * snippet, account mail, invitations): PUBLIC_URL or NEXTAUTH_URL when set, else the origin this
 * request reached (lib/core/public-url.ts).
 */
export async function publicOrigin(): Promise<string> {
  const h = await headers();
  const host = h.get('x-forwarded-host')?.split(',')[0].trim() ?? h.get('host') ?? undefined;
  const proto = h.get('x-forwarded-proto')?.split(',')[0].trim() ?? 'http';
  return productOrigin(host ? `${proto}://${host}` : undefined);
}

/** Only a path inside the console, or an invitation's accept page, may be the target after sign-in or sign-up (no open redirect). */
export function safeNext(next: string): string {
  return /^\/console(?:[/?#]|$)/.test(next) || /^\/invitations\/accept\?token=[A-Za-z0-9_%]+$/.test(next) ? next : '/console';
}
