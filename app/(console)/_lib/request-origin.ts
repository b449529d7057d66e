import { headers } from 'next/headers';

/** The origin the console was reached at, for mailed links when NEXTAUTH_URL is unset (a server action's POST carries Origin). */
export async function consoleOrigin(): Promise<string> {
  const h = await headers();
  return h.get('origin') ?? `http://${h.get('host') ?? 'localhost:3000'}`;
}

/** Only a path inside the console, or an invitation's accept page, may be the target after sign-in or sign-up (no open redirect). */
export function safeNext(next: string): string {
  return /^\/console(?:[/?#]|$)/.test(next) || /^\/invitations\/accept\?token=[A-Za-z0-9_%]+$/.test(next) ? next : '/console';
}
