import { randomUUID } from 'node:crypto';
import { config } from '@/lib/core/config';
import { publicOrigin } from '@/lib/core/public-url';
import { emailTransport, type OutgoingEmail } from '@/lib/providers/email';
import { keepInAccountOutbox } from './account-outbox';

/**
 * The mail an account receives, through the email port: SMTP when SMTP_URL is set, else the
 * account outbox. Links carry the token as `token=` on the console page that spends it.
 */
export type AccountMail =
  | { kind: 'verify_email'; token: string }
  | { kind: 'reset_password'; token: string }
  | { kind: 'signup_attempt'; token: string }
  | { kind: 'site_invitation'; token: string; siteName: string; inviter: string; role: string };

const link = (origin: string, page: string, token: string) => `${origin}/${page}?token=${encodeURIComponent(token)}`;

function compose(mail: AccountMail, origin: string): { subject: string; text: string } {
  switch (mail.kind) {
    case 'verify_email':
      return {
        subject: 'Verify your email address',
        text:
          `Open this link to verify the email address of your Site Growth Platform account:\n\n${link(origin, 'verify-email', mail.token)}\n\n` +
          'The link works once, for 7 days. If you did not create an account, ignore this message.\n',
      };
    case 'reset_password':
      return {
        subject: 'Reset your password',
        text:
          `Open this link to choose a new password for your Site Growth Platform account:\n\n${link(origin, 'reset-password', mail.token)}\n\n` +
          'The link works once, for 1 hour; every session of the account ends when the password changes. ' +
          'If you did not ask for it, ignore this message: your password stays as it is.\n',
      };
    case 'signup_attempt':
      return {
        subject: 'Someone tried to sign up with your email address',
        text:
          'Someone tried to create a Site Growth Platform account with this email address, which already has one. ' +
          'Nothing was changed.\n\n' +
          `If it was you and you forgot your password, choose a new one here (the link works once, for 1 hour):\n\n${link(origin, 'reset-password', mail.token)}\n\n` +
          'Otherwise, ignore this message.\n',
      };
    case 'site_invitation':
      return {
        subject: `You are invited to ${mail.siteName}`,
        text:
          `${mail.inviter} invites you to the site "${mail.siteName}" on Site Growth Platform, as ${mail.role}.\n\n` +
          `Open this link to accept; sign in with this address, or create an account for it first:\n\n${link(origin, 'invitations/accept', mail.token)}\n\n` +
          'The link works once, for 7 days. If you do not know the sender, ignore this message.\n',
      };
  }
}

/** The address part of EMAIL_FROM (`Name <address>` or a bare address). */
const fromAddress = (from: string) => (from.match(/<([^<>\s]+)>/)?.[1] ?? from).trim();

/** Sends one account message to `to`; SMTP failures are answered 502 PROVIDER_ERROR by the port. */
export async function sendAccountMail(to: string, mail: AccountMail, requestOrigin: string): Promise<void> {
  const from = config().EMAIL_FROM;
  const message: OutgoingEmail = {
    from,
    to: [to],
    messageId: `<${randomUUID()}@${fromAddress(from).split('@')[1] ?? 'localhost'}>`,
    ...compose(mail, publicOrigin(requestOrigin)),
  };
  const transport = emailTransport();
  if (transport.kind === 'outbox') await keepInAccountOutbox(message);
  else await transport.deliver(message);
}
