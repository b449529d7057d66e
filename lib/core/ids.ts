import { randomUUID } from 'node:crypto';

/**
 * A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix time in milliseconds, then 74 random
 * bits. Rows keyed by it are inserted at the end of their primary key index, not on a random page
 * of it: for tables written all the time and read by other keys (tracked events), the index stays
 * compact and each insert touches the page the previous one did.
 */
export function timeOrderedUuid(at: number = Date.now()): string {
  const time = at.toString(16).padStart(12, '0');
  // randomUUID's version 4 layout: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx (V: the RFC variant, kept).
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
