import { describe, expect, it } from 'vitest';
import { generateApiKey, hashApiKey, isWellFormedApiKey, generatePlatformKey, isWellFormedPlatformKey } from '@/lib/auth/api-key-format';
import { hashPassword, verifyPassword } from '@/lib/auth/passwords';

describe('API key format', () => {
  it('is <prefix>_<43 base62 random><6 base62 check> and unique', () => {
    const keys = new Set(Array.from({ length: 200 }, () => generateApiKey('key')));
    expect(keys.size).toBe(200);
    for (const key of keys) {
      expect(key).toMatch(/^key_[0-9A-Za-z]{49}$/);
      expect(isWellFormedApiKey(key)).toBe(true);
    }
  });

  it('refuses any single-character change through the check characters', () => {
    const key = generateApiKey('live');
    for (let i = 5; i < key.length; i++) {
      const swapped = key.slice(0, i) + (key[i] === 'a' ? 'b' : 'a') + key.slice(i + 1);
      expect(isWellFormedApiKey(swapped), `position ${i}`).toBe(false);
    }
    expect(isWellFormedApiKey(key.replace('live_', 'test_'))).toBe(false);
  });

  it('refuses bad prefixes', () => {
    for (const prefix of ['', 'UPPER', 'a_b', 'x'.repeat(17)]) expect(() => generateApiKey(prefix)).toThrow();
  });

  it('hashes to 64 hex characters, deterministically', () => {
    const key = generateApiKey('key');
    expect(hashApiKey(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashApiKey(key)).toBe(hashApiKey(key));
  });
});

describe('password hashing', () => {
  it('verifies the right password only, with a fresh salt each time', async () => {
    const [a, b] = await Promise.all([hashPassword('correct horse battery'), hashPassword('correct horse battery')]);
    expect(a).not.toBe(b);
    expect(await verifyPassword('correct horse battery', a)).toBe(true);
    expect(await verifyPassword('correct horse batterx', a)).toBe(false);
    expect(await verifyPassword('anything', 'garbage')).toBe(false);
  });
});

describe('platform key format', () => {
  it('is the key format under a prefix no API key can have', () => {
    const key = generatePlatformKey();
    expect(key).toMatch(/^sgp_pk_[0-9A-Za-z]{49}$/);
    expect(isWellFormedPlatformKey(key)).toBe(true);
    expect(isWellFormedApiKey(key)).toBe(false);
    // Not even an API key made with the closest prefixes passes as a platform key.
    for (const prefix of ['sgp', 'sgppk', 'pk']) expect(isWellFormedPlatformKey(generateApiKey(prefix))).toBe(false);
  });

  it('refuses a changed character (check) and other lengths', () => {
    const key = generatePlatformKey();
    const typo = key.slice(0, 10) + (key[10] === 'a' ? 'b' : 'a') + key.slice(11);
    expect(isWellFormedPlatformKey(typo)).toBe(false);
    expect(isWellFormedPlatformKey(key + 'x')).toBe(false);
    expect(isWellFormedPlatformKey(key.slice(0, -1))).toBe(false);
  });
});
