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

export const tokenBodySchema = z.strictObject({
  email: z
    .string()
    .trim()
    .max(254)
    .transform((e) => e.toLowerCase())
    .describe('Account email'),
  password: z.string().max(256).describe('Account password'),
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
