import http from 'node:http';
import { listenInTestRange } from '../helpers/serve';

/** A port of the test range (3500–3599) that is free right now, for a server a suite starts itself. */
export async function freePort(): Promise<number> {
  const probe = http.createServer();
  const port = await listenInTestRange(probe);
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
