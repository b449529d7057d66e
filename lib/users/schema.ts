import { z } from 'zod';

export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(254)
  .pipe(z.email({ message: 'Must be a valid email address' }))
  .transform((e) => e.toLowerCase())
  .describe('Email address (stored lower-case)');

const passwordSchema = z.string().min(10, 'Password must be at least 10 characters').max(256).describe('At least 10 characters');

export const signupBodySchema = z
  .strictObject({
    email: emailSchema,
    password: passwordSchema,
    name: z.string().trim().min(1).max(200).optional().describe('Display name'),
  })
  .describe('New account');

/** A 6-digit authenticator code or a recovery code (`xxxxx-xxxxx`), as typed: spaces are ignored. */
export const otpSchema = z
  .string()
  .max(64)
  .transform((code) => code.replace(/\s+/g, ''))
  .describe('A 6-digit authenticator code or a recovery code');

export const tokenBodySchema = z.strictObject({
  email: z
    .string()
    .trim()
    .max(254)
    .transform((e) => e.toLowerCase())
    .describe('Account email'),
  password: z.string().max(256).describe('Account password'),
  otp: otpSchema
    .optional()
    .describe('Required once two-factor sign-in is on: the 6-digit code of the authenticator app, or one of the recovery codes'),
});

export const UserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
});

/** The answer of sign-up and of a reset request: the same whether or not the address has an account. */
export const MailSentSchema = z.object({
  email: z.string().describe('The address the request named'),
  message: z.string().describe('What to do next'),
});

const accountTokenSchema = (what: string) => z.string().trim().min(1).max(128).describe(`The \`token\` parameter of the link in the ${what} mail`);

export const forgotPasswordBodySchema = z.strictObject({ email: emailSchema }).describe('The account address to mail a reset link to');

export const resetPasswordBodySchema = z
  .strictObject({
    token: accountTokenSchema('password reset'),
    password: passwordSchema.describe('The new password, at least 10 characters'),
  })
  .describe('A reset link’s token and the new password');

export const verifyEmailBodySchema = z.strictObject({ token: accountTokenSchema('verification') }).describe('A verification link’s token');

export const AccountSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  name: z.string().nullable(),
  email_verified: z
    .boolean()
    .describe('The address was proven by a link mailed to it (verification or password reset) or by the single sign-on provider'),
  two_factor: z.boolean().describe('A second factor is required at sign-in'),
});

export type SignupInput = z.infer<typeof signupBodySchema>;
export type User = z.infer<typeof UserSchema>;
export type Account = z.infer<typeof AccountSchema>;
export type MailSent = z.infer<typeof MailSentSchema>;

export const twoFactorCodeBodySchema = z
  .strictObject({ code: otpSchema.pipe(z.string().min(1, 'Enter a code')) })
  .describe('A code of the authenticator app (or, where accepted, a recovery code)');

export const TwoFactorSetupSchema = z.object({
  secret: z.string().describe('The shared secret, base32, to type into an authenticator app'),
  otpauth_uri: z.string().describe('`otpauth://totp/…` URI of the secret (what the QR code holds)'),
  qr_svg: z.string().describe('The URI as a QR code, an SVG document'),
});

export const RecoveryCodesSchema = z.object({
  recovery_codes: z.array(z.string()).describe('Ten single-use recovery codes, shown this once (only their hashes are kept)'),
});

/** The kinds of the account audit log; the members' kinds are written by invitations and role changes. */
export const ACCOUNT_EVENT_KINDS = [
  'sign_in',
  'sign_in_failed',
  'password_reset',
  'password_changed',
  '2fa_enabled',
  '2fa_disabled',
  'recovery_codes_regenerated',
  'recovery_code_used',
  'session_revoked',
  'invitation_sent',
  'invitation_accepted',
  'invitation_revoked',
  'member_removed',
  'role_changed',
  'ownership_transferred',
  'person_erased',
  'visitor_erased',
] as const;
export type AccountEventKind = (typeof ACCOUNT_EVENT_KINDS)[number];

export const AccountEventSchema = z.object({
  id: z.number().int().describe('Entry id; later entries have larger ids'),
  kind: z.enum(ACCOUNT_EVENT_KINDS).describe('What happened'),
  user_id: z.uuid().describe('The account it happened to'),
  site_id: z.uuid().nullable().describe('The site it happened on (members, roles), or null for the account itself'),
  ip: z.string().nullable().describe('Client address of the request, when known'),
  user_agent: z.string().nullable().describe('User agent of the request, when known'),
  detail: z.record(z.string(), z.unknown()).describe('Small facts of the event (e.g. the session ended); never a secret'),
  created_at: z.string().describe('ISO 8601'),
});

export const SessionInfoSchema = z.object({
  id: z.uuid().describe('Session id'),
  current: z.boolean().describe('The session this request was made with'),
  user_agent: z.string().nullable().describe('User agent it was signed in from'),
  ip: z.string().nullable().describe('Client address it was signed in from'),
  created_at: z.string().describe('ISO 8601'),
  last_used_at: z.string().nullable().describe('ISO 8601, to the minute: last request made with it'),
  expires_at: z.string().describe('ISO 8601'),
});

export type AccountEvent = z.infer<typeof AccountEventSchema>;
export type SessionInfo = z.infer<typeof SessionInfoSchema>;
