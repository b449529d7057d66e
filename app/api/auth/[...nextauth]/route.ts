// route-manifest: exempt — next-auth's own sign-in, callback and session endpoints for the console.
import NextAuth from 'next-auth';
import { authOptions } from '@/lib/auth/next-auth';

const handler = (req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) => NextAuth(authOptions())(req, ctx);

export { handler as GET, handler as POST };
