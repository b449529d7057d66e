import type { ReactNode } from 'react';

/**
 * A titled box of a page. `id` names the heading (the section is labelled by it); `badge`, the
 * status of what the box shows, follows the title; `actions` sit at the right of the title (a
 * button, a link). API hints belong to the Developers area, not here.
 */
export function Card({
  title,
  id,
  badge,
  actions,
  className,
  children,
}: {
  title?: ReactNode;
  id?: string;
  badge?: string;
  actions?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const headingId = id ? `${id}-heading` : undefined;
  return (
    <section className={className ? `card ${className}` : 'card'} aria-labelledby={title ? headingId : undefined}>
      {title && (
        <div className="card-head">
          <h2 id={headingId} tabIndex={-1}>
            {title}
            {badge && (
              <>
                {' '}
                <span className={`badge ${badge}`}>{badge}</span>
              </>
            )}
          </h2>
          {actions && <div className="actions">{actions}</div>}
        </div>
      )}
      {children}
    </section>
  );
}
