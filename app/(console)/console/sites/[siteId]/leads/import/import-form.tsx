'use client';

import { useState } from 'react';
import { CsvError, parseCsv } from '@/lib/leads/csv-parse';
import { proposeMapping, type ImportMapping } from '@/lib/leads/import-mapping';
import type { LeadImport } from '@/lib/leads/import-schema';

const PREVIEW_ROWS = 5;

interface Preview {
  file: File;
  header: string[];
  rows: string[][];
  total: number;
}

/** Reads the chosen file in the browser for the preview; the import itself is POST /api/leads/import (the session cookie). */
export function ImportForm({ siteId, fields, properties }: { siteId: string; fields: string[]; properties: { key: string; label: string }[] }) {
  const [preview, setPreview] = useState<Preview>();
  const [mapping, setMapping] = useState<ImportMapping>({});
  const [error, setError] = useState<string>();
  const [result, setResult] = useState<LeadImport>();
  const [busy, setBusy] = useState(false);

  async function choose(file: File | undefined) {
    setError(undefined);
    setResult(undefined);
    setPreview(undefined);
    if (!file) return;
    try {
      const parsed = parseCsv(await file.text());
      setPreview({ file, header: parsed.header, rows: parsed.records.slice(0, PREVIEW_ROWS).map((r) => r.cells), total: parsed.records.length });
      setMapping(proposeMapping(parsed.header, properties));
    } catch (e) {
      setError(e instanceof CsvError ? `The file is not valid CSV: ${e.message}` : 'The file could not be read');
    }
  }

  async function follow(id: string) {
    for (;;) {
      const res = await fetch(`/api/leads/import/${id}?site_id=${siteId}`, { cache: 'no-store' });
      const body = await res.json();
      if (!res.ok) throw new Error(body.error?.message ?? 'The import could not be read');
      setResult(body.data);
      if (body.data.status === 'completed' || body.data.status === 'failed') return;
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!preview) return;
    setBusy(true);
    setError(undefined);
    setResult(undefined);
    try {
      const form = new FormData();
      form.set('file', preview.file);
      form.set('mapping', JSON.stringify(mapping));
      const res = await fetch(`/api/leads/import?site_id=${siteId}`, { method: 'POST', body: form });
      const body = await res.json();
      if (!res.ok) {
        setError(body.error?.message ?? 'The import was refused');
        return;
      }
      setResult(body.data);
      if (res.status === 202) await follow(body.data.import_id);
    } catch (e) {
      setError(e instanceof Error ? e.message : 'The import failed');
    } finally {
      setBusy(false);
    }
  }

  const label = (target: string) => properties.find((p) => p.key === target)?.label ?? target.replace(/_/g, ' ');
  return (
    <form onSubmit={submit} noValidate>
      <div className="field">
        <label htmlFor="import-file">CSV file</label>
        <input id="import-file" type="file" accept=".csv,text/csv,text/plain" onChange={(e) => void choose(e.target.files?.[0])} />
      </div>
      {preview && (
        <>
          <p className="sub">
            {preview.total.toLocaleString('en-US')} rows; the first {Math.min(PREVIEW_ROWS, preview.total)} below. Choose what each column fills.
          </p>
          <div className="table-scroll">
            <table className="data-table" aria-label="Columns of the file and their mapping">
              <thead>
                <tr>
                  {preview.header.map((h, i) => (
                    <th key={i} scope="col">
                      <span className="wrap">{h || `Column ${i + 1}`}</span>
                      <select
                        aria-label={`Column ${h || i + 1} maps to`}
                        value={mapping[h] ?? ''}
                        onChange={(e) => setMapping({ ...mapping, [h]: e.target.value || null })}
                      >
                        <option value="">Skip</option>
                        <optgroup label="Lead">
                          {fields.map((f) => (
                            <option key={f} value={f}>
                              {label(f)}
                            </option>
                          ))}
                        </optgroup>
                        {properties.length > 0 && (
                          <optgroup label="Custom properties">
                            {properties.map((p) => (
                              <option key={p.key} value={p.key}>
                                {p.label}
                              </option>
                            ))}
                          </optgroup>
                        )}
                      </select>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {preview.rows.map((row, r) => (
                  <tr key={r}>
                    {preview.header.map((_, i) => (
                      <td key={i}>
                        <span className="wrap">{row[i] ?? ''}</span>
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <button type="submit" className="button" disabled={busy}>
            {busy ? 'Importing…' : `Import ${preview.total.toLocaleString('en-US')} ${preview.total === 1 ? 'row' : 'rows'}`}
          </button>
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      {result && (
        <div role="status" className="import-result">
          {result.status === 'completed' ? (
            <p>
              <strong>Imported.</strong> {result.created} created, {result.updated} updated, {result.skipped} skipped.
            </p>
          ) : result.status === 'failed' ? (
            <p className="form-error">{result.failure}</p>
          ) : (
            <p>
              <progress max={result.total_rows} value={result.processed_rows} /> {result.processed_rows.toLocaleString('en-US')} of{' '}
              {result.total_rows.toLocaleString('en-US')} rows
            </p>
          )}
          {result.errors.length > 0 && (
            <table className="data-table" aria-label="Rows skipped">
              <thead>
                <tr>
                  <th scope="col">Row</th>
                  <th scope="col">Why it was skipped</th>
                </tr>
              </thead>
              <tbody>
                {result.errors.slice(0, 200).map((e) => (
                  <tr key={e.row}>
                    <td>{e.row}</td>
                    <td className="wrap">{e.message}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </div>
      )}
    </form>
  );
}
