import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { zip } from '@/lib/analytics/export-zip';
import { unzip } from '@/tests/helpers/unzip';

describe('zip', () => {
  it('holds each file, deflated, with its name and CRC', () => {
    const big = Buffer.from('date,visitors\r\n'.repeat(2000));
    const archive = zip([
      { name: 'overview.csv', data: big },
      { name: 'páginas.csv', data: Buffer.from('') },
    ]);
    expect(archive.length).toBeLessThan(big.length / 10);
    const files = unzip(archive);
    expect([...files.keys()]).toEqual(['overview.csv', 'páginas.csv']);
    expect(files.get('overview.csv')!.equals(big)).toBe(true);
    expect(files.get('páginas.csv')!.length).toBe(0);
  });

  it('opens in the system’s zip tool when it has one', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'zip-'));
    try {
      const file = path.join(dir, 'a.zip');
      writeFileSync(file, zip([{ name: 'a.csv', data: Buffer.from('x,y\r\n1,2\r\n') }]));
      let listed: string;
      try {
        listed = execFileSync(
          'python3',
          ['-c', 'import sys,zipfile; z=zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None; print(z.read("a.csv").decode())', file],
          {
            encoding: 'utf8',
          },
        );
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw error;
      }
      expect(listed).toBe('x,y\r\n1,2\r\n\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
