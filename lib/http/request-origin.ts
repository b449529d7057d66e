/** The origin the request reached: the links an answer mails out point there when NEXTAUTH_URL is unset. */
export const requestOrigin = (req: Request): string => new URL(req.url).origin;
