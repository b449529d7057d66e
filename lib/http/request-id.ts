import { randomUUID } from 'node:crypto';
import { REQUEST_ID_HEADER } from './envelope';

// A caller's id is kept when it is short and printable, so it can be logged and echoed safely.
const ACCEPTABLE = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: Request): string {
  const given = req.headers.get(REQUEST_ID_HEADER);
  return given && ACCEPTABLE.test(given) ? given : randomUUID();
}
