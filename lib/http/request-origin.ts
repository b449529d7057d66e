/** The origin the request reached: the links an answer mails out point there when neither PUBLIC_URL nor NEXTAUTH_URL is set (lib/core/public-url.ts). */
export const requestOrigin = (req: Request): string => new URL(req.url).origin;
