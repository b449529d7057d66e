import { config } from './config';

/**
 * The product's public origin, the one origin of the tracking snippet, of the links in mail and
 * of every link the app gives out: PUBLIC_URL, else NEXTAUTH_URL; unset, the origin of the request
 * at hand (the caller passes it: a domain does not read requests), and for what a background job
 * sends without a request, this server on localhost at its port.
 */
export function publicOrigin(requestOrigin?: string): string {
  const c = config();
  const configured = c.PUBLIC_URL ?? c.NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  if (requestOrigin) return new URL(requestOrigin).origin;
  return `http://localhost:${c.PORT ?? 3000}`;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * Why the links the app gives out would point where this server does not answer, for a warning
 * at start (unset, links from background jobs can only name this machine); undefined when they
 * would answer. `hostname` is the address the server listens on (undefined: every interface), on
 * port PORT.
 */
export function publicOriginWarning(hostname?: string): string | undefined {
  const c = config();
  const port = c.PORT ?? 3000;
  const name = c.PUBLIC_URL ? 'PUBLIC_URL' : c.NEXTAUTH_URL ? 'NEXTAUTH_URL' : undefined;
  if (name) {
    const url = new URL((c.PUBLIC_URL ?? c.NEXTAUTH_URL)!);
    const named = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    return LOOPBACK.has(url.hostname) && named !== port
      ? `${name} is ${url.origin} but this server listens on port ${port}: links in the tracking snippet and in mail point where it does not answer`
      : undefined;
  }
  const here =
    hostname && !LOOPBACK.has(hostname) && hostname !== '0.0.0.0' && hostname !== '::'
      ? `, where this server (on ${hostname}) does not answer`
      : ', on this machine only';
  return `PUBLIC_URL is unset: links in mail sent by background jobs point at http://localhost:${port}${here}; set PUBLIC_URL to the origin people reach the app at`;
}
