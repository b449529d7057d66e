'use client';

import { useEffect, useMemo, useState } from 'react';
import styles from './docs.module.css';

type Schema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema?: Schema;
}
interface Operation {
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters: Parameter[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Schema }> }>;
}
interface OpenApi {
  info: { title: string; description: string };
  /** Group order (the document's top-level tags). */
  tags?: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { securitySchemes: Record<string, { type: string; name?: string; in?: string; scheme?: string }> };
}
interface Entry {
  method: string;
  path: string;
  op: Operation;
}

/**
 * Descriptions are written with `code` spans (the document's Markdown subset): shown as code, never
 * as literal backticks. Text only, no HTML from the document is ever rendered.
 */
export function Prose({ text, className, inline = false }: { text: string; className?: string; inline?: boolean }) {
  const parts = text.split(/`([^`]+)`/).map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part));
  return inline ? <span className={className}>{parts}</span> : <p className={className}>{parts}</p>;
}

/** An example value from a JSON schema: enough for a starting body in the request editor. */
function example(schema: Schema | undefined): unknown {
  if (!schema) return undefined;
  if ('default' in schema) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const anyOf = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (anyOf) return example(anyOf[0]);
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Schema>;
      const required = new Set((schema.required ?? []) as string[]);
      return Object.fromEntries(Object.entries(props).filter(([k]) => required.has(k)).map(([k, v]) => [k, example(v)]));
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return schema.format === 'uuid' ? '00000000-0000-4000-8000-000000000000' : '';
  }
}

function OperationCard({ entry, credential }: { entry: Entry; credential: string }) {
  const { method, path, op } = entry;
  const bodySchema = op.requestBody?.content['application/json']?.schema;
  const [values, setValues] = useState<Record<string, string>>({});
  const [body, setBody] = useState(() => (bodySchema ? JSON.stringify(example(bodySchema), null, 2) : ''));
  const [result, setResult] = useState<{ status: number; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const scheme = op.security[0] ? Object.keys(op.security[0])[0] : undefined;

  async function send() {
    setBusy(true);
    try {
      let url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(values[name] ?? ''));
      const query = new URLSearchParams();
      for (const p of op.parameters.filter((p) => p.in === 'query')) if (values[p.name]) query.set(p.name, values[p.name]);
      if ([...query].length) url += `?${query}`;
      const headers: Record<string, string> = {};
      if (credential && scheme === 'ApiKey') headers['X-API-Key'] = credential;
      else if (credential && scheme === 'SaApiKey') headers['X-SA-API-KEY'] = credential;
      else if (credential && scheme) headers.Authorization = `Bearer ${credential}`;
      if (bodySchema) headers['Content-Type'] = 'application/json';
      const res = await fetch(url, { method, headers, body: bodySchema ? body : undefined });
      const text = await res.text();
      let pretty = text;
      try {
        pretty = JSON.stringify(JSON.parse(text), null, 2);
      } catch {
        /* not JSON: show as is */
      }
      setResult({ status: res.status, text: pretty });
    } catch (error) {
      setResult({ status: 0, text: String(error) });
    } finally {
      setBusy(false);
    }
  }

  const id = `${method}-${path}`.replace(/[^A-Za-z0-9]+/g, '-');
  return (
    <details className={styles.operation} id={id}>
      <summary>
        <span className={styles.method} data-method={method}>
          {method}
        </span>
        <code>{path}</code>
        <span className={styles.summary}>{op.summary}</span>
      </summary>
      <div className={styles.body}>
        {op.description && <Prose className={styles.description} text={op.description} />}
        {op.parameters.length > 0 && (
          <fieldset className={styles.fields}>
            <legend>Parameters</legend>
            {op.parameters.map((p) => (
              <label key={`${p.in}-${p.name}`}>
                <span>
                  {p.name} <small>({p.in}{p.required ? ', required' : ''})</small>
                </span>
                <input value={values[p.name] ?? ''} onChange={(e) => setValues({ ...values, [p.name]: e.target.value })} placeholder={p.description?.replaceAll('`', '')} />
              </label>
            ))}
          </fieldset>
        )}
        {bodySchema && (
          <>
            <label className={styles.block}>
              <span>Request body (JSON)</span>
              <textarea value={body} onChange={(e) => setBody(e.target.value)} rows={Math.min(16, body.split('\n').length + 1)} spellCheck={false} />
            </label>
            <details>
              <summary>Body schema</summary>
              <pre>{JSON.stringify(bodySchema, null, 2)}</pre>
            </details>
          </>
        )}
        <details>
          <summary>Responses</summary>
          <ul>
            {Object.entries(op.responses).map(([status, r]) => (
              <li key={status}>
                <strong>{status}</strong> <Prose inline text={r.description} />
              </li>
            ))}
          </ul>
          <pre>{JSON.stringify(Object.values(op.responses)[0]?.content?.['application/json']?.schema, null, 2)}</pre>
        </details>
        <button type="button" onClick={send} disabled={busy}>
          {busy ? 'Sending…' : 'Send request'}
        </button>
        {result && (
          <div className={styles.result} aria-live="polite">
            <strong>Status {result.status}</strong>
            <pre>{result.text}</pre>
          </div>
        )}
      </div>
    </details>
  );
}

export function ApiReference() {
  const [doc, setDoc] = useState<OpenApi | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [credential, setCredential] = useState('');
  const [filter, setFilter] = useState('');

  useEffect(() => {
    fetch('/api/openapi.json')
      .then((r) => r.json())
      .then(setDoc)
      .catch((e) => setError(String(e)));
  }, []);

  const groups = useMemo(() => {
    const map = new Map<string, Entry[]>();
    if (!doc) return map;
    const needle = filter.toLowerCase();
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (needle && !`${method} ${path} ${op.summary}`.toLowerCase().includes(needle)) continue;
        const tag = op.tags[0] ?? 'Other';
        map.set(tag, [...(map.get(tag) ?? []), { method: method.toUpperCase(), path, op }]);
      }
    }
    // Groups in the document's order (Auth first); a tag it does not list goes last.
    const order = (doc.tags ?? []).map((t) => t.name);
    const rank = (tag: string) => (order.includes(tag) ? order.indexOf(tag) : order.length);
    return new Map([...map].sort(([a], [b]) => rank(a) - rank(b)));
  }, [doc, filter]);

  if (error) return <p role="alert">Could not load the API document: {error}</p>;
  if (!doc) return <p>Loading…</p>;
  return (
    <>
      <Prose className={styles.description} text={doc.info.description} />
      <div className={styles.toolbar}>
        <label>
          <span>Credential (API key or session token)</span>
          <input type="password" value={credential} onChange={(e) => setCredential(e.target.value)} autoComplete="off" placeholder="key_…" />
        </label>
        <label>
          <span>Filter operations</span>
          <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. leads" />
        </label>
      </div>
      {[...groups].map(([tag, entries]) => (
        <section key={tag} className={styles.group}>
          <h2>{tag}</h2>
          {entries.map((entry) => (
            <OperationCard key={`${entry.method} ${entry.path}`} entry={entry} credential={credential} />
          ))}
        </section>
      ))}
    </>
  );
}
