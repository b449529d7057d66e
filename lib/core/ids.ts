import { randomUUID } from 'node:crypto';

/**
 * A time-ordered UUID (version 7, RFC 9562): 48 bits of Unix time in milliseconds, then 74 random
 * bits, so still unguessable. Rows keyed by it are inserted at the end of their primary key index,
 * not on a random page of it: for tables written all the time (tracked events, visitors, sessions),
 * each insert touches the page the previous one did, and Postgres does not write a whole page to
 * its WAL for the first change of a random page after each checkpoint.
 */
export function timeOrderedUuid(at: number = Date.now()): string {
  const time = at.toString(16).padStart(12, '0');
  // randomUUID's version 4 layout: xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx (V: the RFC variant, kept).
  return `${time.slice(0, 8)}-${time.slice(8, 12)}-7${randomUUID().slice(15)}`;
}
