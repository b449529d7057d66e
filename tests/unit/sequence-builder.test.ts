import { describe, expect, it } from 'vitest';
import { builderErrorKey, builderInput, delayText, splitDelay } from '@/app/(console)/_lib/sequence-form';
import { createSequenceBodySchema } from '@/lib/sequences/schema';
import { postedForm } from '@/tests/helpers/form-data';

/** The sequence builder's form as the API's body, and the API's errors put back next to the builder's fields. */
const SITE = '00000000-0000-4000-8000-000000000001';

describe('builderInput', () => {
  it('turns numbered step slots, delays in units, the send window and the options into the API body; empty slots are left out', () => {
    const built = builderInput(
      postedForm([
        ['name', 'Welcome'],
        ['steps.0.delay', '0'],
        ['steps.0.delay_unit', 'minutes'],
        ['steps.0.subject', 'Hi {{first_name|there}}'],
        ['steps.0.subject_variants', 'Hello\r\n\r\n  Hey there  '],
        ['steps.0.body', 'Line one\r\nLine two'],
        ['steps.1.delay', '3'],
        ['steps.1.delay_unit', 'days'],
        ['steps.1.subject', ''],
        ['steps.1.body', ''],
        ['steps.2.delay', '2'],
        ['steps.2.delay_unit', 'hours'],
        ['steps.2.subject', 'Later'],
        ['steps.2.body', 'Still there?'],
        ['steps.2.mode', 'agent'],
        ['send_window', 'on'],
        ['window_days', '1'],
        ['window_days', '3'],
        ['start_hour', '8'],
        ['end_hour', '18'],
        ['daily_cap', '50'],
        ['stop_on_status', 'converted'],
        ['tracking', 'on'],
      ]),
      SITE,
      { withStatus: true },
    );
    expect(built.slots).toEqual([0, 2]);
    expect(built.input).toEqual({
      site_id: SITE,
      name: 'Welcome',
      status: 'active',
      steps: [
        {
          delay_minutes: 0,
          subject: 'Hi {{first_name|there}}',
          subject_variants: ['Hello', 'Hey there'],
          body: 'Line one\nLine two',
          kind: 'email',
          format: 'text',
        },
        // Written by the email agent from the body as its instructions, sent as drafted.
        { delay_minutes: 120, subject: 'Later', body: 'Still there?', kind: 'agent', review: false },
      ],
      send_window: { days: [1, 3], start_hour: 8, end_hour: 18 },
      daily_cap: 50,
      domain_per_minute: null,
      stop_on_status: ['converted'],
      tracking: true,
    });
    expect(createSequenceBodySchema.safeParse(built.input).success).toBe(true);
  });

  it('puts the API schema’s errors next to the slot that holds the step', () => {
    const built = builderInput(
      postedForm([
        ['name', 'X'],
        ['steps.1.subject', 'Hi {{favourite_color}}'],
        ['steps.1.body', 'Body'],
        ['steps.1.delay', 'soon'],
        ['send_window', 'on'],
        ['start_hour', '18'],
        ['end_hour', '9'],
      ]),
      SITE,
      { withStatus: false },
    );
    const parsed = createSequenceBodySchema.safeParse(built.input);
    expect(parsed.success).toBe(false);
    const keys = parsed.error!.issues.map((i) => builderErrorKey(i.path, built.slots));
    expect(keys).toEqual(expect.arrayContaining(['steps.1.subject', 'steps.1.delay', 'send_window.days', 'send_window.end_hour']));
  });
});

describe('delays', () => {
  it('are shown in their largest whole unit', () => {
    expect(splitDelay(4_320)).toEqual({ amount: 3, unit: 'days' });
    expect(splitDelay(90)).toEqual({ amount: 90, unit: 'minutes' });
    expect(splitDelay(120)).toEqual({ amount: 2, unit: 'hours' });
    expect(delayText(0, true)).toBe('right after enrollment');
    expect(delayText(1_440, false)).toBe('1 day after the previous step');
  });
});
