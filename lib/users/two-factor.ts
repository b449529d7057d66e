import { createHash, randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import { guardAttempt, recordFailedAttempt } from '@/lib/auth/brute-force';
import { seal, unseal } from '@/lib/auth/seal';
import { base32Decode, base32Encode, matchTotp, newTotpSecret, otpauthUri } from '@/lib/auth/totp';
import { currentDate, now } from '@/lib/core/clock';
import { ApiError, found } from '@/lib/core/errors';
import { recordAccountEvent, type Client } from './account-events';
import { findUserById } from './repo';
import type { User } from './schema';
import {
  countUnusedRecoveryCodes,
  deleteTwoFactor,
  enablePending,
  findTwoFactor,
  replaceRecoveryCodes,
  savePendingSecret,
  spendRecoveryCode,
  spendStep,
  type TwoFactorRow,
} from './two-factor-repo';

/**
 * Two-factor sign-in: a TOTP secret (RFC 6238, lib/auth/totp.ts) set up pending, turned on by a
 * first code, then asked for at every sign-in with a password. Each code works once (the last
 * accepted time step is kept per account); ten recovery codes, shown once and stored as SHA-256,
 * each work once in place of a code. Wrong codes count toward the account's brute-force lockout.
 */
const ISSUER = 'Site Growth Platform';
const RECOVERY_CODES = 10;
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

export const twoFactorEnabled = async (userId: string): Promise<boolean> => (await findTwoFactor(userId))?.enabledAt != null;

/** What the account security page shows: whether it is on, and how many recovery codes are left. */
export async function twoFactorStatus(userId: string): Promise<{ enabled: boolean; recoveryCodesLeft: number }> {
  const enabled = await twoFactorEnabled(userId);
  return { enabled, recoveryCodesLeft: enabled ? await countUnusedRecoveryCodes(userId) : 0 };
}

const secretOf = (row: TwoFactorRow) => base32Decode(unseal('totp-secret', row.secretSealed));

/** A recovery code as typed (any case, with or without its dash): the form its hash is of. */
const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');
const recoveryCodeHash = (code: string) =>
  createHash('sha256')
    .update(`sgp.recovery:${normalRecoveryCode(code)}`)
    .digest('hex');

/** Ten new recovery codes (`xxxxx-xxxxx`, about 49 random bits each) and their hashes. */
function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODES }, () => {
    const bytes = randomBytes(10);
    const chars = Array.from(bytes, (b) => RECOVERY_ALPHABET[b % RECOVERY_ALPHABET.length]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
  return { codes, hashes: codes.map(recoveryCodeHash) };
}

const isTotpCode = (code: string) => /^\d{6}$/.test(code);
const wrongCode = () => new ApiError('INVALID_REQUEST', 'That code is not valid: use the current code of your authenticator app');

const notEnabled = () => new ApiError('INVALID_REQUEST', 'Two-factor sign-in is not on for this account');

async function accountUser(userId: string): Promise<User> {
  return found(await findUserById(userId), 'Account');
}

/**
 * Checks a code against an account whose second factor is on and spends it: a TOTP code of the
 * window not used before, or (with `recovery`) an unused recovery code. What it was, or null.
 */
async function spendCode(userId: string, row: TwoFactorRow, code: string, recovery: boolean): Promise<'totp' | 'recovery_code' | null> {
  if (isTotpCode(code)) {
    const step = matchTotp(secretOf(row), code, now());
    return step !== null && (await spendStep(userId, step)) ? 'totp' : null;
  }
  return recovery && (await spendRecoveryCode(userId, recoveryCodeHash(code), currentDate())) ? 'recovery_code' : null;
}

async function recordRecoveryUse(userId: string, client: Client): Promise<void> {
  await recordAccountEvent({ userId, kind: 'recovery_code_used', ...client, detail: { remaining: await countUnusedRecoveryCodes(userId) } });
}

/**
 * Starts setting up a second factor: a new secret, pending until `enableTwoFactor` gets a code of
 * it (a pending one is replaced). 409 once the second factor is on.
 */
export async function setUpTwoFactor(userId: string) {
  const user = await accountUser(userId);
  const secret = newTotpSecret();
  const encoded = base32Encode(secret);
  if (!(await savePendingSecret(userId, seal('totp-secret', encoded), currentDate()))) {
    throw new ApiError('CONFLICT', 'Two-factor sign-in is already on; turn it off first to set up a new authenticator');
  }
  const uri = otpauthUri(secret, user.email, ISSUER);
  const svg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return { secret: encoded, otpauth_uri: uri, qr_svg: svg };
}

/**
 * Turns the pending secret on with a code of it; answers the ten recovery codes, this once. A
 * wrong code counts toward the account's lockout, as at sign-in.
 */
export async function enableTwoFactor(userId: string, code: string, client: Client): Promise<{ recovery_codes: string[] }> {
  const user = await accountUser(userId);
  return guardAttempt({ ip: client.ip, account: user.email }, async () => {
    const row = await findTwoFactor(userId);
    if (!row) throw new ApiError('INVALID_REQUEST', 'Set up two-factor sign-in first (POST /api/auth/2fa/setup)');
    if (row.enabledAt) throw new ApiError('CONFLICT', 'Two-factor sign-in is already on');
    const step = isTotpCode(code) ? matchTotp(secretOf(row), code, now()) : null;
    const { codes, hashes } = newRecoveryCodes();
    if (step === null || !(await enablePending(userId, step, hashes, currentDate()))) throw wrongCode();
    await recordAccountEvent({ userId, kind: '2fa_enabled', ...client });
    return { recovery_codes: codes };
  });
}

/** Turns the second factor off with a current code or a recovery code. */
export async function disableTwoFactor(userId: string, code: string, client: Client): Promise<{ two_factor: false }> {
  const user = await accountUser(userId);
  return guardAttempt({ ip: client.ip, account: user.email }, async () => {
    const row = await findTwoFactor(userId);
    if (!row?.enabledAt) throw notEnabled();
    const spent = await spendCode(userId, row, code, true);
    if (!spent) throw wrongCode();
    if (spent === 'recovery_code') await recordRecoveryUse(userId, client);
    await deleteTwoFactor(userId);
    await recordAccountEvent({ userId, kind: '2fa_disabled', ...client, detail: { with: spent } });
    return { two_factor: false };
  });
}

/** Ten new recovery codes for a current authenticator code; the old ones stop working. */
export async function regenerateRecoveryCodes(userId: string, code: string, client: Client): Promise<{ recovery_codes: string[] }> {
  const user = await accountUser(userId);
  return guardAttempt({ ip: client.ip, account: user.email }, async () => {
    const row = await findTwoFactor(userId);
    if (!row?.enabledAt) throw notEnabled();
    if (!(await spendCode(userId, row, code, false))) throw wrongCode();
    const { codes, hashes } = newRecoveryCodes();
    await replaceRecoveryCodes(userId, hashes, currentDate());
    await recordAccountEvent({ userId, kind: 'recovery_codes_regenerated', ...client });
    return { recovery_codes: codes };
  });
}

/**
 * The second step of a sign-in whose password was right: nothing to do without a second factor;
 * otherwise `otp` must be a fresh code or an unused recovery code. 401 OTP_REQUIRED without one
 * (not a failure: the client asks for it and tries again), 401 UNAUTHORIZED for a wrong, stale or
 * replayed one (a failure counted against the account). How the sign-in was completed.
 */
export async function checkSecondFactor(user: User, otp: string | undefined, client: Client): Promise<'password' | 'totp' | 'recovery_code'> {
  const row = await findTwoFactor(user.id);
  if (!row?.enabledAt) return 'password';
  if (!otp) {
    throw new ApiError('OTP_REQUIRED', 'Two-factor sign-in is on: send the code of your authenticator app (or a recovery code) as `otp`');
  }
  const spent = await spendCode(user.id, row, otp, true);
  if (!spent) {
    await recordFailedAttempt(user.email);
    await recordAccountEvent({ userId: user.id, kind: 'sign_in_failed', ...client, detail: { reason: 'otp' } });
    throw new ApiError('UNAUTHORIZED', 'Invalid two-factor code');
  }
  if (spent === 'recovery_code') await recordRecoveryUse(user.id, client);
  return spent;
}
