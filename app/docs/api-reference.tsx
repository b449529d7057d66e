'use client';

import { useEffect, useRef, useState } from 'react';
import { bundleOpenApi, partsOf } from '@/lib/http/openapi-split';
import styles from './docs.module.css';

export interface KeyChoice {
  id: string;
  name: string;
  display: string;
}
export interface SiteChoice {
  id: string;
  name: string;
  keys: KeyChoice[];
}

type Doc = { paths: Record<string, Record<string, Op>> };
type Op = {
  parameters?: { name: string; example?: unknown }[];
  requestBody?: { content: Record<string, { example?: unknown }> };
};

interface ScalarApp {
  updateConfiguration?: (config: object) => void;
  destroy?: () => void;
}
declare global {
  interface Window {
    Scalar?: { createApiReference: (el: Element | string, config: object) => ScalarApp };
  }
}

/** The document with the chosen site filled in wherever an operation names `site_id` (parameters, example bodies). */
export function withSite(doc: Doc, siteId: string | undefined): Doc {
  if (!siteId) return doc;
  const copy = structuredClone(doc);
  for (const ops of Object.values(copy.paths)) {
    for (const op of Object.values(ops)) {
      for (const p of op.parameters ?? []) if (p.name === 'site_id') p.example = siteId;
      for (const media of Object.values(op.requestBody?.content ?? {})) {
        if (media.example && typeof media.example === 'object' && 'site_id' in media.example) media.example = { ...media.example, site_id: siteId };
      }
    }
  }
  return copy;
}

const getJson = (url: string) =>
  fetch(url).then((r) => {
    if (!r.ok) throw new Error(`${url}: HTTP ${r.status}`);
    return r.json();
  });

/** /api/openapi.json and the part of each tag it refers to, as one document for the renderer. */
async function loadDocument(): Promise<Doc> {
  const main = await getJson('/api/openapi.json');
  const files = partsOf(main);
  const parts = await Promise.all(files.map((f) => getJson(`/api/openapi/${f}`)));
  return bundleOpenApi(main, Object.fromEntries(files.map((f, i) => [f, parts[i]]))) as unknown as Doc;
}

function loadScript(src: string): Promise<void> {
  if (window.Scalar) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = src;
    script.onload = () => resolve();
    script.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(script);
  });
}

/**
 * Scalar's reference over /api/openapi.json, self-hosted (/docs/reference.js). The owner picks a
 * site and one of its keys; the key itself (shown only when it was created) is pasted once and
 * kept in this tab only. Try-it then sends it in the header each operation names, with the site filled in.
 */
export function ApiReference({ sites }: { sites: SiteChoice[] }) {
  const [siteId, setSiteId] = useState(sites[0]?.id ?? '');
  const site = sites.find((s) => s.id === siteId);
  const [keyId, setKeyId] = useState(site?.keys[0]?.id ?? '');
  const [secret, setSecret] = useState('');
  const [doc, setDoc] = useState<Doc>();
  const [failed, setFailed] = useState<string>();
  const mount = useRef<HTMLDivElement>(null);
  const app = useRef<ScalarApp>(undefined);

  useEffect(() => {
    setSecret(sessionStorage.getItem(`docs-key:${keyId}`) ?? '');
  }, [keyId]);

  useEffect(() => {
    Promise.all([loadDocument(), loadScript('/docs/reference.js')])
      .then(([d]) => setDoc(d))
      .catch((e: Error) => setFailed(e.message));
  }, []);

  useEffect(() => {
    if (!doc || !mount.current || !window.Scalar) return;
    const config = {
      content: withSite(doc, siteId),
      withDefaultFonts: false,
      telemetry: false,
      agent: { disabled: true },
      hideDownloadButton: false,
      showDeveloperTools: 'never',
      persistAuth: false,
      authentication: {
        preferredSecurityScheme: 'ApiKey',
        ...(secret ? { securitySchemes: { ApiKey: { value: secret }, SaApiKey: { value: secret }, Bearer: { token: secret } } } : {}),
      },
    };
    app.current?.destroy?.();
    mount.current.replaceChildren();
    const el = document.createElement('div');
    mount.current.appendChild(el);
    app.current = window.Scalar.createApiReference(el, config);
  }, [doc, siteId, secret]);

  useEffect(() => () => app.current?.destroy?.(), []);

  const keep = (value: string) => {
    setSecret(value);
    if (keyId) sessionStorage.setItem(`docs-key:${keyId}`, value);
  };

  return (
    <>
      <form className={styles.picker} aria-label="Try-it credentials" onSubmit={(e) => e.preventDefault()}>
        {sites.length > 0 ? (
          <>
            <label>
              <span>Site</span>
              <select
                value={siteId}
                onChange={(e) => (setSiteId(e.target.value), setKeyId(sites.find((s) => s.id === e.target.value)?.keys[0]?.id ?? ''))}
              >
                {sites.map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.name}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>Key</span>
              <select value={keyId} onChange={(e) => setKeyId(e.target.value)} disabled={!site?.keys.length}>
                {site?.keys.length ? (
                  site.keys.map((k) => (
                    <option key={k.id} value={k.id}>
                      {k.name} ({k.display})
                    </option>
                  ))
                ) : (
                  <option value="">No active key</option>
                )}
              </select>
            </label>
          </>
        ) : (
          <p>
            <a href="/signin">Sign in</a> to pick one of your sites and keys.
          </p>
        )}
        <label className={styles.secret}>
          <span>{keyId ? 'Paste this key (kept in this tab only)' : 'API key'}</span>
          <input type="password" value={secret} onChange={(e) => keep(e.target.value)} autoComplete="off" placeholder="key_…" />
        </label>
        <a href="/api/openapi.json">openapi.json</a>
      </form>
      {failed ? <p role="alert">The reference could not be loaded: {failed}</p> : null}
      <div ref={mount} className={styles.reference} data-testid="api-reference" />
    </>
  );
}
