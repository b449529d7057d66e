'use server';

import { z } from 'zod';
import { bodyFromForm, schemaFields } from '@/components/schema-form/fields';
import { catalogEntry, WORKFLOW_NAMES } from '@/lib/workflows/catalog';
import { startParsedWorkflow } from '@/lib/workflows/service';
import { defineAction } from './define-action';
import { fieldErrors, FormErrors, safeParseForm, text } from './forms';

const startSchema = z.object({ workflow: z.enum(WORKFLOW_NAMES as [string, ...string[]]), body: z.record(z.string(), z.unknown()) });

/**
 * Starts a run of a catalog workflow with the body its generated form submitted, as
 * POST /api/workflow/{name} does (the body's schema refuses what the API refuses, next to the field).
 */
export const startWorkflowAction = defineAction({
  permission: 'crm.write',
  schema: startSchema,
  input: (form, siteId) => {
    const workflow = text(form, 'workflow_name');
    const entry = catalogEntry(workflow);
    return { workflow, body: entry ? { ...bodyFromForm(schemaFields(entry.body), form), site_id: siteId } : {} };
  },
  run: async ({ site, input }) => {
    // The body's schema, as the form reads it: its errors in words, next to their fields.
    const entry = catalogEntry(input.workflow)!;
    const parsed = safeParseForm(entry.body, input.body);
    if (!parsed.success) throw new FormErrors(fieldErrors(parsed.error));
    return (await startParsedWorkflow(site.id, entry, parsed.data, null)).workflowId;
  },
  revalidate: () => ['/workflows', '/instances'],
});
