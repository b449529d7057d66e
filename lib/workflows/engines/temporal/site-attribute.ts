import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The typed `site_id` search attribute (Keyword) set on every run at start. The logs query,
 * the tenant check of every by-id call and the workflow's own `ctx.siteId` all read it. The
 * cluster must have it registered (docs/OPERATIONS.md "Running with Temporal").
 */
export const SITE_ID_ATTRIBUTE = defineSearchAttributeKey('site_id', SearchAttributeType.KEYWORD);
