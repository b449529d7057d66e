import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/core/errors';
import { getDb } from '@/lib/db/client';
import { emailMessages, emailRecipients, sequenceEnrollments, sequenceMessages } from '@/lib/db/schema';
import { createLead } from '@/lib/leads/repo';
import { enrollmentHistory, leadEnrollments, sentStepCount } from '@/lib/sequences/history';
import { previewStep } from '@/lib/sequences/preview';
import { createSequence, enroll, unenroll } from '@/lib/sequences/service';
import { testSendStep } from '@/lib/sequences/test-send';
import { updateSettings } from '@/lib/settings/service';
import { createTenant, type Tenant } from '@/tests/helpers/harness';
import { useSmtpStandIn } from '@/tests/helpers/smtp-for-tests';

/**
 * What the console's sequence pages read and do beside the API: a step previewed with a real
 * lead's values, a test of it sent to the owner's verified address only (outbox without SMTP,
 * the SMTP server with it), an enrollment's history step by step, and a lead's enrollments.
 */
let t: Tenant;
let other: Tenant;

const steps = [
  {
    delay_minutes: 0,
    subject: 'Hi {{first_name|there}}',
    subject_variants: ['A question for {{company|your team}}'],
    body: 'Hello {{first_name|there}} ({{position|friend}}) at {{company}}, from {{site_name}} in {{industry|retail}}.',
  },
  { delay_minutes: 4_320, subject: 'Following up', body: 'Any thoughts, {{name}}?' },
];

async function verified(siteId: string, email: string) {
  await (await getDb()).insert(emailRecipients).values({ siteId, email, verifiedAt: new Date() });
}

beforeAll(async () => {
  [t, other] = await Promise.all([createTenant(), createTenant()]);
  await updateSettings(t.siteId, { industry: 'Outdoor gear' } as never);
});

const lead = (siteId: string, name: string, extra: { company?: string | null; position?: string | null } = {}) =>
  createLead(siteId, {
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}.${Math.random().toString(36).slice(2, 8)}@example.org`,
    company: extra.company ?? null,
    position: extra.position ?? null,
  } as never);

describe('previewStep', () => {
  it("writes a step with the lead's and the site's values, every A/B subject, and fallbacks where the lead has none", async () => {
    const seq = await createSequence(t.siteId, { site_id: t.siteId, name: 'Welcome', steps });
    const ada = await lead(t.siteId, 'Ada Lovelace', { company: 'Analytical Engines', position: 'CTO' });
    const preview = await previewStep(t.siteId, seq.id, 0, ada.id);
    expect(preview.lead).toMatchObject({ id: ada.id, name: 'Ada Lovelace' });
    expect(preview.subjects).toEqual(['Hi Ada', 'A question for Analytical Engines']);
    expect(preview.body).toBe('Hello Ada (CTO) at Analytical Engines, from Test site in Outdoor gear.');
    expect(preview.delay_minutes).toBe(0);

    const bare = await lead(t.siteId, 'X');
    const fallback = await previewStep(t.siteId, seq.id, 0, bare.id);
    expect(fallback.subjects).toEqual(['Hi X', 'A question for your team']);
    expect(fallback.body).toBe('Hello X (friend) at , from Test site in Outdoor gear.');
    expect((await previewStep(t.siteId, seq.id, 1, ada.id)).body).toBe('Any thoughts, Ada Lovelace?');
  });

  it('a step the sequence lacks, a lead of another site, another site’s sequence: 404', async () => {
    const seq = await createSequence(t.siteId, { site_id: t.siteId, name: 'Short', steps: [steps[1]] });
    const mine = await lead(t.siteId, 'Mine');
    const theirs = await lead(other.siteId, 'Theirs');
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'ok',
        (e: unknown) => (e instanceof ApiError ? e.code : String(e)),
      );
    expect(await code(previewStep(t.siteId, seq.id, 1, mine.id))).toBe('NOT_FOUND');
    expect(await code(previewStep(t.siteId, seq.id, -1, mine.id))).toBe('NOT_FOUND');
    expect(await code(previewStep(t.siteId, seq.id, 0, theirs.id))).toBe('NOT_FOUND');
    expect(await code(previewStep(other.siteId, seq.id, 0, theirs.id))).toBe('NOT_FOUND');
  });
});

describe('testSendStep', () => {
  it('goes only to a verified test recipient of the site; without SMTP it is kept in the outbox', async () => {
    const seq = await createSequence(t.siteId, { site_id: t.siteId, name: 'Outbox test', steps });
    const ada = await lead(t.siteId, 'Ada Byron', { company: 'Engines' });
    await verified(t.siteId, 'owner@shop.example');
    await verified(other.siteId, 'stranger@elsewhere.example');

    const refused = await testSendStep(t.siteId, seq.id, { step: 0, lead_id: ada.id, to: ada.email }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe('FORBIDDEN');
    const elsewhere = await testSendStep(t.siteId, seq.id, { step: 0, lead_id: ada.id, to: 'stranger@elsewhere.example' }).catch((e: unknown) => e);
    expect((elsewhere as ApiError).code).toBe('FORBIDDEN');

    const sent = await testSendStep(t.siteId, seq.id, { step: 0, lead_id: ada.id, to: 'Owner@Shop.example', variant: 1 });
    expect(sent).toEqual({ to: 'owner@shop.example', subject: '[Test] A question for Engines', status: 'stored' });
    const kept = await (
      await getDb()
    )
      .select()
      .from(emailMessages)
      .where(and(eq(emailMessages.siteId, t.siteId), eq(emailMessages.subject, '[Test] A question for Engines')));
    expect(kept).toHaveLength(1);
    expect(kept[0].toAddresses).toEqual(['owner@shop.example']);
    expect(kept[0].leadId).toBeNull();
    expect(kept[0].textBody).toContain('Hello Ada (friend) at Engines');
    expect(kept[0].textBody).toContain('To stop receiving these messages:');
    // Nothing was sent to the lead, and the lead is not enrolled.
    expect(await leadEnrollments(t.siteId, ada.id)).toEqual([]);

    const noVariant = await testSendStep(t.siteId, seq.id, { step: 1, lead_id: ada.id, to: 'owner@shop.example', variant: 1 }).catch(
      (e: unknown) => e,
    );
    expect((noVariant as ApiError).code).toBe('NOT_FOUND');
  });

  describe('through an SMTP server', () => {
    const smtp = useSmtpStandIn();

    it('hands the test to the server, written for the lead, with one-click unsubscribe', async () => {
      const seq = await createSequence(t.siteId, { site_id: t.siteId, name: 'SMTP test', steps });
      const grace = await lead(t.siteId, 'Grace Hopper', { company: 'Navy', position: 'Admiral' });
      await verified(t.siteId, 'tester@shop.example');
      const seen = smtp.received.length;
      const sent = await testSendStep(t.siteId, seq.id, { step: 0, lead_id: grace.id, to: 'tester@shop.example' });
      expect(sent.status).toBe('sent');
      const mail = await smtp.next(seen);
      expect(mail.envelope.to).toEqual(['tester@shop.example']);
      expect(mail.parsed.subject).toBe('[Test] Hi Grace');
      expect(mail.parsed.text).toContain('Hello Grace (Admiral) at Navy, from Test site in Outdoor gear.');
      expect(mail.raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/im);
      expect(smtp.received.some((m) => m.envelope.to.includes(grace.email))).toBe(false);
    });
  });
});

describe('history and a lead’s enrollments', () => {
  it('lists each enrollment’s messages by step, a lead’s sequences with their status, and which steps are sent', async () => {
    const seq = await createSequence(t.siteId, { site_id: t.siteId, name: 'History', steps });
    const [ada, bob] = await Promise.all([lead(t.siteId, 'Ada King'), lead(t.siteId, 'Bob Stone')]);
    const made = await enroll(t.siteId, seq.id, { site_id: t.siteId, lead_ids: [ada.id, bob.id] });
    expect(made.enrolled).toBe(2);
    expect(await sentStepCount(t.siteId, seq.id)).toBe(0);
    const adaEnrollment = made.enrollments.find((e) => e.lead_id === ada.id)!;
    const sentAt = new Date('2026-12-01T10:00:00Z');
    await (await getDb()).insert(sequenceMessages).values({
      siteId: t.siteId,
      sequenceId: seq.id,
      enrollmentId: adaEnrollment.id,
      step: 0,
      variant: 1,
      status: 'sent',
      sentAt,
      openedAt: new Date('2026-12-01T11:00:00Z'),
      repliedAt: new Date('2026-12-01T12:00:00Z'),
    });
    await unenroll(t.siteId, seq.id, bob.id);

    const history = await enrollmentHistory(
      t.siteId,
      made.enrollments.map((e) => e.id),
    );
    expect(history.get(adaEnrollment.id)).toEqual([
      {
        step: 0,
        variant: 1,
        status: 'sent',
        sent_at: sentAt.toISOString(),
        opened_at: '2026-12-01T11:00:00.000Z',
        clicked_at: null,
        replied_at: '2026-12-01T12:00:00.000Z',
        bounced_at: null,
        unsubscribed_at: null,
      },
    ]);
    expect(history.get(made.enrollments.find((e) => e.lead_id === bob.id)!.id)).toEqual([]);
    // Another site reads nothing of it.
    expect((await enrollmentHistory(other.siteId, [adaEnrollment.id])).get(adaEnrollment.id)).toEqual([]);
    expect(await sentStepCount(t.siteId, seq.id)).toBe(1);

    const [adaIn] = await leadEnrollments(t.siteId, ada.id);
    expect(adaIn).toMatchObject({ sequence_id: seq.id, sequence_name: 'History', steps: 2, status: 'active', next_step: 0 });
    const [bobIn] = await leadEnrollments(t.siteId, bob.id);
    expect(bobIn).toMatchObject({ sequence_id: seq.id, status: 'stopped', stop_reason: 'removed', next_send_at: null });
    expect(await leadEnrollments(other.siteId, ada.id)).toEqual([]);
    const rows = await (await getDb()).select().from(sequenceEnrollments).where(eq(sequenceEnrollments.sequenceId, seq.id));
    expect(rows).toHaveLength(2);
  });
});
