import { platformKey } from '@/lib/http/auth/policies';
import { defineRoute } from '@/lib/http/define-route';
import { PlatformMeSchema } from '@/lib/platform/schema';
import { introspect } from '@/lib/platform/service';

// GET /api/platform/me — introspection: the key, its site and app, the app's tenant schema and today's quotas
export const GET = defineRoute({
  summary: 'Platform key introspection',
  description:
    'Verifies the platform key and answers what it is bound to: the key (id, display form, expiry, capabilities), the site, ' +
    'the generated app and its tenant schema `app_<short_id>` (`exists` once the first migration created it), and the ' +
    "daily quota of each of the key's capabilities. Any capability opens this route.",
  tags: ['Platform API'],
  auth: platformKey('any'),
  response: PlatformMeSchema,
  handler: ({ principal }) => introspect(principal),
});
