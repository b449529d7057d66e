import { ApiError } from '@/lib/core/errors';
import { sendEmail, unverifiedRecipients } from '@/lib/email/service';
import { previewStep } from './preview';

/**
 * A test of one step before leads get it: the step written for a real lead of the site, with the
 * chosen subject (the first by default, "[Test] " before it), sent to one of the owner's verified
 * test recipients only, never to the lead. It goes
 * through the site's transport like any message (outbox without SMTP) with the unsubscribe link
 * a lead would get, and is linked to no lead.
 */
interface TestSendInput {
  step: number;
  lead_id: string;
  /** A verified test recipient of the site (Email → Test recipients). */
  to: string;
  /** Which subject: 0 (`subject`, the default) or an A/B variant. */
  variant?: number;
}

interface TestSendResult {
  to: string;
  subject: string;
  /** `stored`: kept in the site's outbox (no SMTP server); `sent`: handed to the SMTP server. */
  status: 'stored' | 'sent';
}

/** `requestOrigin`: the origin of the console's request, for the unsubscribe link when PUBLIC_URL is unset. */
export async function testSendStep(siteId: string, sequenceId: string, input: TestSendInput, requestOrigin?: string): Promise<TestSendResult> {
  const to = input.to.trim().toLowerCase();
  if ((await unverifiedRecipients(siteId, [to])).length > 0) {
    throw new ApiError('FORBIDDEN', 'A test goes only to one of your verified test recipients (Email → Test recipients)', { field: 'to' });
  }
  const preview = await previewStep(siteId, sequenceId, input.step, input.lead_id);
  const variant = input.variant ?? 0;
  if (!Number.isInteger(variant) || variant < 0 || variant >= preview.subjects.length) {
    throw new ApiError('NOT_FOUND', `Step ${input.step + 1} has no subject ${variant + 1}`, { field: 'variant' });
  }
  const subject = `[Test] ${preview.subjects[variant]}`;
  const sent = await sendEmail(siteId, null, { to: [to], subject, text: preview.body }, { unsubscribeFooter: true, requestOrigin });
  return { to, subject, status: sent.status === 'stored' ? 'stored' : 'sent' };
}
