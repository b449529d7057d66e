'use client';

// An unexpected failure while rendering a console page; the details are in the server log.
export default function ConsoleError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="card" role="alert">
      <h1>Something went wrong</h1>
      <p>The page could not be shown. Try again; if it keeps failing, check the server log.</p>
      <button type="button" className="button primary" onClick={reset}>
        Try again
      </button>
    </section>
  );
}
