import { lookupContacts } from '@/lib/finder/calls';
import { contactsLookupBodySchema, ContactsLookupResponseSchema } from '@/lib/finder/schema';
import { policies } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';

// POST /api/finder/person_contacts_lookup — work or personal emails, phone numbers or details of one person
export const POST = defineRoute({
  summary: 'Look up the contacts of a person',
  description:
    'One lookup per call: `work_emails` (2 credits), `personal_emails` (2), `phone_numbers` (5) or `details` (1), for a ' +
    '`person_id` from a search. Charged only when the provider answers (an empty answer is an answer).',
  tags: ['Finder'],
  auth: policies.keyWrite,
  body: contactsLookupBodySchema,
  response: ContactsLookupResponseSchema,
  errors: ['INSUFFICIENT_CREDITS', 'PROVIDER_ERROR', 'PROVIDER_NOT_CONFIGURED', 'RATE_LIMITED'],
  handler: ({ siteId, body }) => lookupContacts(siteId, body.person_id, body.type),
});
