import { crc32, inflateRawSync } from 'node:zlib';

/**
 * The files of a zip archive, read from its central directory (deflated or stored entries), each
 * checked against its CRC-32: what an archive tool does when it opens one.
 */
export function unzip(archive: Buffer): Map<string, Buffer> {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error('no end of central directory');
  const count = archive.readUInt16LE(end + 10);
  let at = archive.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (archive.readUInt32LE(at) !== 0x02014b50) throw new Error(`bad central header ${i}`);
    const method = archive.readUInt16LE(at + 10);
    const sum = archive.readUInt32LE(at + 16);
    const packed = archive.readUInt32LE(at + 20);
    const size = archive.readUInt32LE(at + 24);
    const nameLength = archive.readUInt16LE(at + 28);
    const extra = archive.readUInt16LE(at + 30);
    const comment = archive.readUInt16LE(at + 32);
    const offset = archive.readUInt32LE(at + 42);
    const name = archive.toString('utf8', at + 46, at + 46 + nameLength);
    if (archive.readUInt32LE(offset) !== 0x04034b50) throw new Error(`bad local header of ${name}`);
    const start = offset + 30 + archive.readUInt16LE(offset + 26) + archive.readUInt16LE(offset + 28);
    const raw = archive.subarray(start, start + packed);
    const data = method === 8 ? inflateRawSync(raw) : Buffer.from(raw);
    if (data.length !== size || crc32(data) !== sum) throw new Error(`${name} does not match its size or CRC`);
    files.set(name, data);
    at += 46 + nameLength + extra + comment;
  }
  return files;
}
