import type { Metadata } from 'next';
import { mcpToolOf } from '@/lib/http/mcp';
import { listKeysForUser } from '@/lib/keys/service';
import { can } from '@/lib/members/permissions';
import { listSitesOfMember } from '@/lib/sites/service';
import { tools } from '@/lib/tools/registry';
import { currentUser } from '../(console)/_lib/session';
import { ApiReference, type KeyChoice, type SiteChoice } from './api-reference';
import { DocsHeader } from './docs-header';
import styles from './docs.module.css';

export const metadata: Metadata = { title: 'API reference — Site Growth Platform' };
export const dynamic = 'force-dynamic';

// /docs — the API reference (Scalar over /api/openapi.json), with the signed-in owner's sites and keys for try-it
export default async function DocsPage() {
  const user = await currentUser();
  const sites: SiteChoice[] = [];
  if (user) {
    for (const site of await listSitesOfMember(user.id)) {
      // A member whose role does not manage keys picks a site without seeing its keys.
      const keys: KeyChoice[] = (can(site.role, 'keys.manage') ? await listKeysForUser(user, site.id) : [])
        .filter((k) => k.status === 'active')
        .map((k) => ({ id: k.id, name: k.name, display: k.display }));
      sites.push({ id: site.id, name: site.name, keys });
    }
  }
  const mcpTools = tools.map(mcpToolOf);
  return (
    <div className={styles.page}>
      <DocsHeader current="api" user={user ?? null} />
      <ApiReference sites={sites} />
      <section className={styles.mcp} aria-labelledby="mcp-tools">
        <h2 id="mcp-tools">MCP tools</h2>
        <p>
          The same tools over the Model Context Protocol at <code>POST /api/mcp</code> (Streamable HTTP, your API key as Bearer). Each tool&apos;s
          input and output schema:
        </p>
        {mcpTools.map((t) => (
          <details key={t.name} className={styles.tool}>
            <summary>
              <code>{t.name}</code> — {t.title}{' '}
              <small>
                {t.annotations?.readOnlyHint ? 'read-only' : t.annotations?.destructiveHint ? 'overwrites' : 'adds'}
                {t.annotations?.openWorldHint ? ', calls a provider' : ''}
              </small>
            </summary>
            <p>{t.description}</p>
            <h3>Input</h3>
            <pre>{JSON.stringify(t.inputSchema, null, 2)}</pre>
            <h3>Output</h3>
            <pre>{JSON.stringify(t.outputSchema, null, 2)}</pre>
          </details>
        ))}
      </section>
    </div>
  );
}
