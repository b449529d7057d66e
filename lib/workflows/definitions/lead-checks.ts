import type { LeadSnapshot } from '../activities';

/**
 * Why a lead's contact data cannot be used, or null when it can. Pure: the same lead always gives
 * the same answer, so a replayed run decides the same way.
 */
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i;
// RFC 2606 / RFC 6761 names that never receive mail.
const RESERVED_SUFFIXES = ['.test', '.example', '.invalid', '.localhost', '.local'];
const RESERVED_DOMAINS = ['example.com', 'example.net', 'example.org', 'localhost'];
const DISPOSABLE_DOMAINS = [
  'mailinator.com',
  'guerrillamail.com',
  '10minutemail.com',
  'tempmail.com',
  'yopmail.com',
  'trashmail.com',
  'sharklasers.com',
];

export function invalidReason(lead: Pick<LeadSnapshot, 'email' | 'phone'>): string | null {
  const email = lead.email.trim().toLowerCase();
  if (!EMAIL.test(email) || email.includes('..')) return 'email is not a valid address';
  const domain = email.slice(email.lastIndexOf('@') + 1);
  if (RESERVED_DOMAINS.includes(domain) || RESERVED_SUFFIXES.some((s) => domain.endsWith(s)))
    return `email domain ${domain} is reserved and receives no mail`;
  if (DISPOSABLE_DOMAINS.includes(domain)) return `email domain ${domain} is a disposable mailbox`;
  if (lead.phone !== null && lead.phone.trim() !== '') {
    const digits = lead.phone.replace(/\D/g, '');
    if (digits.length < 7 || digits.length > 15) return 'phone number has too few or too many digits';
  }
  return null;
}

export const emailDomain = (email: string) => email.slice(email.lastIndexOf('@') + 1).toLowerCase();
