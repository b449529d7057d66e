import { toolRoute } from '@/lib/http/tool-route';
import { mergeLeadsTool } from '@/lib/tools/people';

// POST /api/agents/tools/leads/merge — merge another lead of the same person into a lead
export const POST = toolRoute(mergeLeadsTool);
