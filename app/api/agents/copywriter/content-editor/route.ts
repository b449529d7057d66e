import { contentEditorBodySchema } from '@/lib/agents/schema';
import { contentEditRequest } from '@/lib/agents/service';
import { agentRoute } from '@/lib/http/agent-route';

// POST /api/agents/copywriter/content-editor — edit content following an instruction
export const POST = agentRoute({
  summary: 'Edit content with the copywriter agent',
  description:
    "The copywriter rewrites `content` following `instruction`, in the brand's voice unless `tone` says otherwise, at the requested `length` and `format`. The edited content alone is the command's `reply`. The copywriter uses no tools.",
  body: contentEditorBodySchema,
  request: contentEditRequest,
});
