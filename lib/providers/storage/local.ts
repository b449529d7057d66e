import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FileStorage } from './port';

/** Files on local disk under `<DATA_DIR>/uploads`. Keys never escape that folder. */
export function localStorage(dataDir: string): FileStorage {
  const root = path.resolve(/*turbopackIgnore: true*/ dataDir, 'uploads');
  const fileOf = (key: string) => {
    const file = path.resolve(root, key);
    if (!file.startsWith(root + path.sep)) throw new Error('storage key escapes the uploads folder');
    return file;
  };
  return {
    kind: 'local',
    async put(key, bytes) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write-then-rename would hide partial files; a new key per upload makes a plain write enough.
      await writeFile(file, bytes, { flag: 'wx' });
    },
    async get(key) {
      return readFile(fileOf(key)).then(
        (b) => new Uint8Array(b),
        () => undefined,
      );
    },
    async remove(key) {
      await rm(fileOf(key), { force: true });
    },
  };
}
