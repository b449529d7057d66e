import { z } from 'zod';
import { isoTimestamp, uuidSchema } from '@/lib/core/schemas';
import { emailSchema } from '@/lib/users/schema';
import { ASSIGNABLE_ROLES, ROLES } from './permissions';

const roleSchema = z.enum(ROLES).describe('owner (one per site; everything), admin, member or viewer (reads only)');
const assignableRoleSchema = z.enum(ASSIGNABLE_ROLES).describe('admin, member or viewer (a site gets a new owner by hand-over only)');

export const memberPathSchema = z.strictObject({
  site_id: uuidSchema.describe('Site id (UUID); a site the signed-in user is a member of'),
  user_id: uuidSchema.describe('User id of the member'),
});

export const invitationPathSchema = z.strictObject({
  site_id: uuidSchema.describe('Site id (UUID); a site the signed-in user is a member of'),
  id: uuidSchema.describe('Invitation id'),
});

export const inviteMemberBodySchema = z.strictObject({
  email: emailSchema.describe('Address to mail the invitation to; the person accepts signed in with an account of this address'),
  role: assignableRoleSchema,
});
export type InviteMemberInput = z.infer<typeof inviteMemberBodySchema>;

export const changeRoleBodySchema = z.strictObject({
  role: roleSchema.describe('The new role. `owner` hands the site over (the owner only): the member becomes owner and the old owner admin'),
});

export const acceptInvitationBodySchema = z.strictObject({
  token: z.string().min(1).max(200).describe('The `token` of the invitation link'),
});

export const MemberSchema = z.object({
  user_id: uuidSchema,
  email: z.string(),
  name: z.string().nullable(),
  role: roleSchema,
  created_at: isoTimestamp.describe('When the person joined the site'),
});
export type Member = z.infer<typeof MemberSchema>;

export const InvitationSchema = z.object({
  id: uuidSchema,
  email: z.string().describe('The invited address'),
  role: assignableRoleSchema,
  invited_by: uuidSchema.nullable().describe('User who sent it (null once that account is gone)'),
  expires_at: isoTimestamp.describe('The link works until then (7 days after it was sent)'),
  created_at: isoTimestamp,
});
export type Invitation = z.infer<typeof InvitationSchema>;

export const TeamSchema = z.object({
  members: z.array(MemberSchema).describe('Members, the owner first'),
  invitations: z.array(InvitationSchema).describe('Invitations not yet accepted, revoked or expired'),
});

export const AcceptedInvitationSchema = z.object({
  site_id: uuidSchema,
  role: roleSchema.describe('Your role on the site (a member already keeps the role they had)'),
  joined: z.boolean().describe('false when you were already a member'),
});

export const RemovedMemberSchema = z.object({
  user_id: uuidSchema,
  removed: z.literal(true),
});

export const RevokedInvitationSchema = z.object({
  id: uuidSchema,
  revoked: z.literal(true),
});
