import Link from 'next/link';

export default function Home() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: 640, margin: '4rem auto', padding: '0 1rem' }}>
      <h1>Site Growth Platform</h1>
      <p>
        API reference: <Link href="/docs">/docs</Link> · OpenAPI: <a href="/api/openapi.json">/api/openapi.json</a>
      </p>
    </main>
  );
}
