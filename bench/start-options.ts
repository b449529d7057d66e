import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The Node options `npm start` gives the server entry (package.json: `node <options> server.mjs`), so a bench runs servers as it does. */
export function startOptions(cwd = process.cwd()): string[] {
  const start: string = JSON.parse(readFileSync(path.join(cwd, 'package.json'), 'utf8')).scripts.start;
  const words = start.split(/\s+/);
  return words.slice(words.indexOf('node') + 1, words.indexOf('server.mjs'));
}
