import { toolRoute } from '@/lib/http/tool-route';
import { getLeadNotesTool } from '@/lib/tools/people';

// POST /api/agents/tools/leads/notes/get — a lead's notes, newest first
export const POST = toolRoute(getLeadNotesTool);
