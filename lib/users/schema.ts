import { z } from 'zod';

export const emailSchema = z
  .string()
  .trim()
  .min(1, 'Email is required')
  .max(254)
  .pipe(z.email({ message: 'Must be a valid email address' }))
  .transform((e) => e.toLowerCase())
  .describe('Email address (stored lower-case)');

export const signupBodySchema = z
  .strictObject({
    email: emailSchema,
    password: z.string().min(10, 'Password must be at least 10 characters').max(256).describe('At least 10 characters'),
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

export type SignupInput = z.infer<typeof signupBodySchema>;
export type User = z.infer<typeof UserSchema>;
