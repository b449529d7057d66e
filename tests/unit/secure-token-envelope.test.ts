import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decryptSecret,
  encryptSecret,
  MasterKeyUnavailableError,
  rewrapSecret,
  SecretIntegrityError,
  type SealedSecret,
} from '@/lib/secure-tokens/envelope';
import { keyringOf, parseMasterKeys, MasterKeyFormatError } from '@/lib/secure-tokens/keyring';

const k1 = randomBytes(32).toString('base64');
const k2 = randomBytes(32).toString('base64');
const v1 = keyringOf(parseMasterKeys(`v1:${k1}`), 'env');
const both = keyringOf(parseMasterKeys(`v2:${k2},v1:${k1}`), 'env');
const binding = { siteId: '11111111-1111-4111-8111-111111111111', tokenId: '22222222-2222-4222-8222-222222222222' };

const flip = (b64: string, at = 0) => {
  const bytes = Buffer.from(b64, 'base64');
  bytes[at] ^= 0x80;
  return bytes.toString('base64');
};

describe('envelope encryption', () => {
  it('round-trips, with a fresh IV and data key each time', () => {
    const a = encryptSecret(v1, binding, 'päss wörd ✓');
    const b = encryptSecret(v1, binding, 'päss wörd ✓');
    expect(decryptSecret(v1, binding, a)).toBe('päss wörd ✓');
    expect(a.iv).not.toBe(b.iv);
    expect(a.wrappedKey).not.toBe(b.wrappedKey);
    expect(a).toMatchObject({ keyVersion: 1, keyId: v1.current.id });
  });

  const tampered: [string, (s: SealedSecret) => SealedSecret][] = [
    ['ciphertext', (s) => ({ ...s, ciphertext: flip(s.ciphertext) })],
    ['tag', (s) => ({ ...s, tag: flip(s.tag, 15) })],
    ['short tag', (s) => ({ ...s, tag: Buffer.from(s.tag, 'base64').subarray(0, 4).toString('base64') })],
    ['iv', (s) => ({ ...s, iv: flip(s.iv) })],
    ['wrapped key', (s) => ({ ...s, wrappedKey: flip(s.wrappedKey, 30) })],
    ['key id', (s) => ({ ...s, keyId: 'ffffffffffffffff' })],
    ['not base64', (s) => ({ ...s, ciphertext: `${s.ciphertext}*` })],
  ];
  it.each(tampered)('a changed %s fails closed', (_what, change) => {
    const sealed = encryptSecret(v1, binding, 'secret');
    expect(() => decryptSecret(v1, binding, change(sealed))).toThrow(SecretIntegrityError);
  });

  it('is bound to its site and token id', () => {
    const sealed = encryptSecret(v1, binding, 'secret');
    expect(() => decryptSecret(v1, { ...binding, tokenId: '33333333-3333-4333-8333-333333333333' }, sealed)).toThrow(SecretIntegrityError);
    expect(() => decryptSecret(v1, { ...binding, siteId: '33333333-3333-4333-8333-333333333333' }, sealed)).toThrow(SecretIntegrityError);
  });

  it('is bound to its master key version: relabelling fails, an unlisted version is unavailable', () => {
    const sealed = encryptSecret(both, binding, 'secret');
    expect(sealed.keyVersion).toBe(2);
    const relabelled = { ...sealed, keyVersion: 1, keyId: both.keys[1].id };
    expect(() => decryptSecret(both, binding, relabelled)).toThrow(SecretIntegrityError);
    expect(() => decryptSecret(v1, binding, sealed)).toThrow(MasterKeyUnavailableError);
  });

  it('rewrapping changes only the wrapped key; the old key then is not needed', () => {
    const sealed = encryptSecret(v1, binding, 'secret');
    const rewrapped = rewrapSecret(both, binding, sealed);
    expect(rewrapped).toMatchObject({ iv: sealed.iv, ciphertext: sealed.ciphertext, tag: sealed.tag, keyVersion: 2 });
    expect(decryptSecret(keyringOf(parseMasterKeys(`v2:${k2}`), 'env'), binding, rewrapped)).toBe('secret');
  });

  it('messages of failures carry no material', () => {
    const sealed = encryptSecret(v1, binding, 'value-7f3a9c');
    let text = '';
    try {
      decryptSecret(v1, binding, { ...sealed, tag: flip(sealed.tag) });
    } catch (error) {
      text = `${(error as Error).message} ${JSON.stringify(error)}`;
    }
    expect(text).toContain('integrity check');
    for (const part of [sealed.ciphertext, sealed.tag, sealed.wrappedKey, k1, 'value-7f3a9c']) expect(text).not.toContain(part);
  });
});

describe('SECRETS_MASTER_KEY format', () => {
  it.each([
    ['', 'no master key listed'],
    ['v1', 'entry 1 must look like'],
    [`1:${k1}`, 'entry 1 must look like'],
    [`v0:${k1}`, 'entry 1 must look like'],
    [`v1:${randomBytes(31).toString('base64')}`, 'entry 1 (v1) is not the base64 of 32 bytes'],
    [`v1:${k1},v1:${k2}`, 'a version is listed twice'],
  ])('refuses %j', (text, message) => {
    expect(() => parseMasterKeys(text)).toThrow(MasterKeyFormatError);
    expect(() => parseMasterKeys(text)).toThrow(message);
  });
});
