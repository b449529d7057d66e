import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { fieldErrors, optionalText, safeParseForm } from '@/app/(console)/_lib/forms';
import { parseOriginLines } from '@/app/(console)/_lib/origin-lines';
import { absoluteTime, relativeTime } from '@/components/dates';
import { bodyFromForm, schemaFields } from '@/components/schema-form/fields';
import { createKeyBodySchema } from '@/lib/keys/schema';
import { impliedOrigins } from '@/lib/sites/origins';
import { signupBodySchema } from '@/lib/users/schema';
import { customerSupportBody } from '@/lib/workflows/bodies';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const at = (ms: number) => new Date(NOW + ms).toISOString();
const DAY = 86_400_000;

describe('console dates', () => {
  it.each([
    [at(90 * DAY), 'in 3 months'],
    [at(365 * DAY), 'next year'],
    [at(-2 * 3_600_000), '2 hours ago'],
    [at(-DAY), 'yesterday'],
    [at(30_000), 'just now'],
  ])('%s reads "%s"', (iso, expected) => {
    expect(relativeTime(iso, NOW)).toBe(expected);
  });

  it('states the absolute instant in UTC', () => {
    expect(absoluteTime('2027-02-19T14:18:00Z')).toBe('Feb 19, 2027, 2:18 PM UTC');
  });
});

describe('console form errors', () => {
  it('keys the first message of each field by its name, from the API schema', () => {
    const parsed = createKeyBodySchema.safeParse({
      name: ' ',
      scopes: [],
      site_id: '0b7a4f40-8f0c-4b8e-9d7a-1f1f1f1f1f1f',
      expirationDays: 400,
      prefix: 'Bad!',
    });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({
      name: 'Name is required',
      scopes: 'At least one scope is required',
      expirationDays: 'Expiry must be 1–365 days',
      prefix: 'Prefix must be 1–16 lowercase letters or digits',
    });
  });

  it('says an empty email is required, not invalid', () => {
    const parsed = signupBodySchema.safeParse({ email: '  ', password: 'long enough password' });
    expect(fieldErrors(parsed.error!)).toEqual({ email: 'Email is required' });
  });

  it('uses the schema messages people see in the sign-up form', () => {
    const parsed = signupBodySchema.safeParse({ email: 'nope', password: 'short' });
    expect(fieldErrors(parsed.error!)).toEqual({
      email: 'Must be a valid email address',
      password: 'Password must be at least 10 characters',
    });
  });

  it("words zod's own messages for a person: the empty customer-support form names each required field", () => {
    const body = bodyFromForm(schemaFields(customerSupportBody), new FormData());
    const parsed = safeParseForm(customerSupportBody, { ...body, site_id: '0b7a4f40-8f0c-4b8e-9d7a-1f1f1f1f1f1f' });
    const errors = fieldErrors(parsed.error!);
    expect(errors).toMatchObject({ conversationId: 'Conversation ID is required', message: 'Message is required', email: 'Email is required' });
    expect(Object.keys(errors)).toHaveLength(12);
    for (const message of Object.values(errors)) expect(message).not.toMatch(/Invalid input|expected|received/);
  });

  it.each([
    [{ n: z.number() }, { n: 'x' }, { n: 'N must be a number' }],
    [{ lead_ids: z.array(z.string()).min(1) }, { lead_ids: [] }, { lead_ids: 'Lead IDs: give at least one' }],
    [{ status: z.enum(['new', 'lost']) }, { status: 'old' }, { status: 'Status must be one of: new, lost' }],
    [{ website_url: z.url() }, { website_url: 'nope' }, { website_url: 'Website URL must be a web address (https://…)' }],
    [{ name: z.string().min(1, 'Give it a name') }, { name: '' }, { name: 'Give it a name' }],
  ])('words %j given %j', (shape, input, expected) => {
    const parsed = safeParseForm(z.strictObject(shape as z.ZodRawShape), input);
    expect(fieldErrors(parsed.error!)).toEqual(expected);
  });

  it('treats an empty optional field as absent, so schema defaults apply', () => {
    const form = new FormData();
    form.set('domain', '   ');
    form.set('prefix', 'abc');
    expect(optionalText(form, 'domain')).toBeUndefined();
    expect(optionalText(form, 'prefix')).toBe('abc');
    expect(optionalText(form, 'missing')).toBeUndefined();
  });
});

describe('console origin lists', () => {
  it('reads one origin per line with the API schema, normalized and without repeats', () => {
    expect(parseOriginLines('  https://App.Example.com/ \n\nhttp://localhost:5173\r\nhttps://app.example.com')).toEqual({
      origins: ['https://app.example.com', 'http://localhost:5173'],
    });
    expect(parseOriginLines('')).toEqual({ origins: [] });
  });

  it('names every line that is not an origin, by its line number', () => {
    const reason = 'Must be an origin such as https://app.example.com (http or https, no path)';
    expect(parseOriginLines('https://ok.example.com\nhttps://ok.example.com/path\n\nftp://files.example.com\nhttps://fine.example.com')).toEqual({
      error: `Line 2 “https://ok.example.com/path”: ${reason}\nLine 4 “ftp://files.example.com”: ${reason}`,
    });
  });

  it('lists the origins a domain implies, with its www. twin', () => {
    expect(impliedOrigins('www.shop.example.com')).toEqual([
      'https://shop.example.com',
      'http://shop.example.com',
      'https://www.shop.example.com',
      'http://www.shop.example.com',
    ]);
    expect(impliedOrigins(null)).toEqual([]);
  });
});
