// route-manifest: exempt — next-auth's own sign-in, callback and session endpoints for the console.
import { nextAuthRoute } from '@/lib/http/next-auth-route';

export { nextAuthRoute as GET, nextAuthRoute as POST };
