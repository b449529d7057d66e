import { describe, expect, it } from 'vitest';
import { workflowCatalog, WORKFLOW_NAMES } from '@/lib/workflows/catalog';
import { clusterLeads } from '@/lib/workflows/definitions/clustering';
import { invalidReason } from '@/lib/workflows/definitions/lead-checks';
import { extract } from '@/lib/workflows/fetch-page';

describe('workflow catalog', () => {
  it('has every name of the spec, with the spec type names', () => {
    expect(WORKFLOW_NAMES.sort()).toEqual(
      [
        'leadGeneration',
        'leadFollowUp',
        'leadResearch',
        'enrichLead',
        'leadInvalidation',
        'assignLeads',
        'analyzeSite',
        'idealClientProfileMining',
        'keyAccountGeneration',
        'buildSegments',
        'buildSegmentsICP',
        'buildCampaigns',
        'buildContent',
        'customerSupport',
        'syncEmails',
        'dailyStandUp',
        'humanIntervention',
        'startRobot',
        'stopRobot',
        'promptRobot',
        'webhook',
        'agentMessage',
      ].sort(),
    );
    expect(workflowCatalog.leadGeneration.type).toBe('leadGenerationWorkflow');
    expect(workflowCatalog.customerSupport.type).toBe('customerSupportMessageWorkflow');
    expect(workflowCatalog.agentMessage.type).toBe('agentMessageWorkflow');
    for (const entry of Object.values(workflowCatalog)) expect(typeof entry.definition).toBe('function');
  });

  it('keeps the five spec bodies (idealClientProfileMining adds an optional role_query_id)', () => {
    const keys = (name: string) => Object.keys((workflowCatalog[name].body as unknown as { shape: object }).shape).sort();
    expect(keys('leadGeneration')).toEqual(['site_id']);
    expect(keys('leadFollowUp')).toEqual(['lead_id', 'site_id']);
    expect(keys('idealClientProfileMining')).toEqual(['role_query_id', 'site_id']);
    expect(keys('enrichLead')).toEqual(['company_name', 'linkedin_profile', 'person_id', 'site_id', 'userId']);
    expect(keys('customerSupport')).toHaveLength(14);
    expect(workflowCatalog.webhook.body.safeParse({}).success).toBe(true);
  });
});

describe('page summary', () => {
  it('extracts title, description and headings, ignoring scripts', () => {
    const page = extract('<title> A &amp; B </title><meta content="D" name="description"><script>"<h1>x</h1>"</script><h3 class=x>T<b>!</b></h3>');
    expect(page).toEqual({ title: 'A & B', description: 'D', headings: [{ level: 3, text: 'T !' }], links: 0 });
  });
});

describe('lead checks and clustering', () => {
  const lead = (id: string, email: string, origin: string | null, phone: string | null = null) =>
    ({
      id,
      name: 'n',
      email,
      status: 'new',
      phone,
      position: null,
      company: null,
      notes: null,
      origin,
      segment_id: null,
      assignee_id: null,
      lead_score: null,
    }) as const;

  it('names why contact data is unusable', () => {
    expect(invalidReason(lead('1', 'ada@acme.io', null))).toBeNull();
    expect(invalidReason(lead('1', 'ada@@acme.io', null))).toMatch(/not a valid address/);
    expect(invalidReason(lead('1', 'ada@shop.test', null))).toMatch(/reserved/);
    expect(invalidReason(lead('1', 'ada@mailinator.com', null))).toMatch(/disposable/);
    expect(invalidReason(lead('1', 'ada@acme.io', null, '123'))).toMatch(/phone/);
  });

  it('clusters by normalized values, largest first, skipping small groups and missing values', () => {
    const plans = clusterLeads(
      [
        lead('a', 'a@x.io', 'Web'),
        lead('b', 'b@x.io', ' web'),
        lead('c', 'c@y.io', 'Fair'),
        lead('d', 'd@y.io', null),
        lead('e', 'e@y.io', 'fair'),
        lead('f', 'f@y.io', 'fair'),
      ],
      ['origin'],
      2,
    );
    expect(plans.map((p) => [p.key, p.lead_ids])).toEqual([
      ['auto:origin=fair', ['c', 'e', 'f']],
      ['auto:origin=web', ['a', 'b']],
    ]);
    expect(clusterLeads([lead('a', 'a@x.io', 'w')], ['email_domain'], 1)[0].name).toBe('Email domain: x.io');
  });
});
