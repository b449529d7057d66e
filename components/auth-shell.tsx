import type { ReactNode } from 'react';

/** The frame of the sign-in and sign-up pages. */
export function AuthShell({ title, children, footer }: { title: string; children: ReactNode; footer: ReactNode }) {
  return (
    <main className="auth">
      <div>
        <div className="card">
          <p className="brand">Site Growth Platform</p>
          <h1>{title}</h1>
          {children}
        </div>
        <p className="auth-footer">{footer}</p>
        <p className="auth-footer">
          <a href="/docs">API reference</a>
        </p>
      </div>
    </main>
  );
}
