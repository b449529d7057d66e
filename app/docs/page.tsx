import type { Metadata } from 'next';
import { ApiReference } from './api-reference';
import styles from './docs.module.css';

export const metadata: Metadata = { title: 'API reference — Site Growth Platform' };

// /docs — interactive reference over /api/openapi.json (the document generated from the route declarations)
export default function DocsPage() {
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <nav aria-label="Back">
          <a href="/console">← Back to the console</a>
        </nav>
        <h1>API reference</h1>
        <p>
          Generated from the route declarations. Raw document: <a href="/api/openapi.json">/api/openapi.json</a>. Paste a
          credential below, open an operation and send it from this page.
        </p>
      </header>
      <ApiReference />
    </main>
  );
}
