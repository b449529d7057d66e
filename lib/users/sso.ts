import { z } from 'zod';
import { currentDate } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { ApiError } from '@/lib/core/errors';
import { textProblem } from '@/lib/core/text';
import { countUsers, findUserByEmail } from './repo';
import { emailSchema, type User } from './schema';
import { findIdentityUser, hasIdentityAt, insertIdentityUser, linkIdentity, signInLinkedIdentity, type IdentityKey } from './sso-repo';

/** Why a single sign-on was refused; the sign-in page has a message for each. */
export type SsoRefusal =
  | 'SsoEmailMissing'
  | 'SsoEmailUnverified'
  | 'SsoDomainNotAllowed'
  | 'SsoSignupClosed'
  | 'SsoLinkedElsewhere'
  | 'SsoWrongIssuer'
  // Too many callbacks from the client's address (AUTH_RATE_LIMIT_PER_IP): refused before the provider is asked.
  | 'SsoRateLimited';

export type SsoOutcome = { user: User; created: boolean } | { refused: SsoRefusal };

/** What the provider says of the person: the verified ID token's claims, completed by its userinfo endpoint. */
const claimsSchema = z.object({
  iss: z.string().min(1),
  sub: z.string().min(1).max(255),
  email: z.unknown().optional(),
  // Some providers send the JSON string "true" instead of the boolean.
  email_verified: z.unknown().optional(),
  name: z.unknown().optional(),
});

/** The issuer as identities are keyed by it: OIDC_ISSUER without a trailing slash. */
export const ssoIssuer = (): string => (config().OIDC_ISSUER ?? '').replace(/\/+$/, '');

/** A display name from the provider, when it is one we would accept from a form. */
function displayName(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().slice(0, 200);
  return name && !textProblem(name) ? name : null;
}

/**
 * Signs in the person a provider vouched for. Every sign-in needs a verified address in an allowed
 * domain (OIDC_ALLOWED_DOMAINS). An identity already linked (issuer + subject) signs in to its
 * account whatever its address is now; otherwise the account with that address is linked (its
 * address verified from now on), or, while sign-up is open, a new account without a password is made.
 */
export async function signInWithSso(claims: unknown): Promise<SsoOutcome> {
  const parsed = claimsSchema.parse(claims);
  if (parsed.iss.replace(/\/+$/, '') !== ssoIssuer()) return { refused: 'SsoWrongIssuer' };
  const email = emailSchema.safeParse(parsed.email);
  if (!email.success) return { refused: 'SsoEmailMissing' };
  if (parsed.email_verified !== true && parsed.email_verified !== 'true') return { refused: 'SsoEmailUnverified' };
  const allowed = config().OIDC_ALLOWED_DOMAINS;
  if (allowed.length > 0 && !allowed.includes(email.data.slice(email.data.lastIndexOf('@') + 1))) return { refused: 'SsoDomainNotAllowed' };

  const identity = { issuer: ssoIssuer(), subject: parsed.sub, email: email.data };
  try {
    return await resolve(identity, displayName(parsed.name));
  } catch (error) {
    // Two first sign-ins of one identity or address at once: the other one linked it, so look again.
    if (error instanceof ApiError && error.code === 'CONFLICT') return resolve(identity, displayName(parsed.name));
    throw error;
  }
}

async function resolve(identity: IdentityKey, name: string | null): Promise<SsoOutcome> {
  const at = currentDate();
  const linked = await signInLinkedIdentity(identity, at);
  if (linked) return { user: linked, created: false };
  const existing = await findUserByEmail(identity.email);
  if (existing) {
    // The address moved at the provider to a person who is not the one this account was linked to.
    if (await hasIdentityAt(existing.id, identity.issuer)) return { refused: 'SsoLinkedElsewhere' };
    await linkIdentity(existing.id, identity, at);
    return { user: { id: existing.id, email: existing.email, name: existing.name }, created: false };
  }
  if (!config().OPEN_SIGNUP && (await countUsers()) > 0) return { refused: 'SsoSignupClosed' };
  return { user: await insertIdentityUser(identity, name, at), created: true };
}

/** The account a provider's subject was linked to by signInWithSso. */
export const ssoAccountOf = (subject: string): Promise<User | undefined> => findIdentityUser(ssoIssuer(), subject);
