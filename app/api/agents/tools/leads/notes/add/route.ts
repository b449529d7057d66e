import { toolRoute } from '@/lib/http/tool-route';
import { addLeadNoteTool } from '@/lib/tools/people';

// POST /api/agents/tools/leads/notes/add — write a note on a lead
export const POST = toolRoute(addLeadNoteTool);
