import type { ReactNode } from 'react';

/** What a list or page says before there is anything in it, and what to do about it. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="empty-state">
      <p className="empty-title">{title}</p>
      {children && <div className="empty">{children}</div>}
      {action && <div className="actions">{action}</div>}
    </div>
  );
}
