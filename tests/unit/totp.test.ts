import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, hotp, matchTotp, newTotpSecret, otpauthUri, totpAt, totpStep } from '@/lib/auth/totp';

/** RFC 6238 appendix B: the SHA-1 seed and its 8-digit codes at each test time (seconds). */
const RFC6238_SEED = Buffer.from('12345678901234567890', 'ascii');
const RFC6238_SHA1: [number, string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

/** RFC 4226 appendix D: the 6-digit HOTP values of counters 0–9 over the same seed. */
const RFC4226 = ['755224', '287082', '359152', '969429', '338314', '254676', '287922', '162583', '399871', '520489'];

describe('TOTP (RFC 6238)', () => {
  it('matches the RFC 6238 SHA-1 test vectors', () => {
    for (const [seconds, code] of RFC6238_SHA1) expect(totpAt(RFC6238_SEED, seconds * 1000, 8), `T=${seconds}`).toBe(code);
  });

  it('matches the RFC 4226 HOTP test vectors (6 digits)', () => {
    RFC4226.forEach((code, counter) => expect(hotp(RFC6238_SEED, counter)).toBe(code));
  });

  it('6-digit codes are the last six digits of the 8-digit ones', () => {
    for (const [seconds, code] of RFC6238_SHA1) expect(totpAt(RFC6238_SEED, seconds * 1000)).toBe(code.slice(2));
  });

  it('accepts one step of drift either way and names the step matched; refuses older, newer and malformed codes', () => {
    const at = 1111111111_000;
    const step = totpStep(at);
    expect(matchTotp(RFC6238_SEED, totpAt(RFC6238_SEED, at), at)).toBe(step);
    expect(matchTotp(RFC6238_SEED, totpAt(RFC6238_SEED, at - 30_000), at)).toBe(step - 1);
    expect(matchTotp(RFC6238_SEED, totpAt(RFC6238_SEED, at + 30_000), at)).toBe(step + 1);
    expect(matchTotp(RFC6238_SEED, totpAt(RFC6238_SEED, at - 60_000), at)).toBeNull();
    expect(matchTotp(RFC6238_SEED, totpAt(RFC6238_SEED, at + 60_000), at)).toBeNull();
    for (const bad of ['', '12345', '1234567', 'abcdef', ' 050471']) expect(matchTotp(RFC6238_SEED, bad, at)).toBeNull();
  });

  it('base32 round-trips (RFC 4648 vectors, no padding) and refuses other characters', () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['f', 'MY'],
      ['fo', 'MZXQ'],
      ['foo', 'MZXW6'],
      ['foob', 'MZXW6YQ'],
      ['fooba', 'MZXW6YTB'],
      ['foobar', 'MZXW6YTBOI'],
    ];
    for (const [plain, encoded] of vectors) {
      expect(base32Encode(Buffer.from(plain))).toBe(encoded);
      expect(base32Decode(encoded).toString()).toBe(plain);
    }
    expect(base32Decode('mzxw 6ytb oi======').toString()).toBe('foobar');
    expect(() => base32Decode('MZXW1')).toThrow();
    const secret = newTotpSecret();
    expect(secret).toHaveLength(20);
    expect(base32Decode(base32Encode(secret))).toEqual(secret);
  });

  it('writes the otpauth URI authenticator apps read', () => {
    const uri = otpauthUri(RFC6238_SEED, 'ada@example.com', 'Site Growth');
    expect(uri).toBe(
      'otpauth://totp/Site%20Growth:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Site%20Growth&algorithm=SHA1&digits=6&period=30',
    );
  });
});
