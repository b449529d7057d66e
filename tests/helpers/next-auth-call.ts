import NextAuth from 'next-auth';
import { authOptions } from '@/lib/users/next-auth';

export interface NextAuthAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  body: unknown;
}

/** next-auth's request handler (the API-route form, which needs no Next request context) called as Next would. */
export async function callNextAuth(
  method: 'GET' | 'POST',
  action: string[],
  cookies: Record<string, string>,
  o: { body?: Record<string, string>; query?: Record<string, string> } = {},
): Promise<NextAuthAnswer> {
  const answer: NextAuthAnswer = { status: 200, headers: {}, body: undefined };
  const res = {
    status: (code: number) => ((answer.status = code), res),
    setHeader: (name: string, value: string | string[]) => ((answer.headers[name.toLowerCase()] = value), res),
    getHeader: (name: string) => answer.headers[name.toLowerCase()],
    send: (b: unknown) => void (answer.body = b),
    json: (b: unknown) => void (answer.body = b),
    end: () => undefined,
  };
  const req = {
    method,
    query: { nextauth: action, ...o.query },
    cookies,
    body: o.body ?? {},
    headers: { host: 'localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
  };
  await NextAuth(req as never, res as never, authOptions());
  return answer;
}
