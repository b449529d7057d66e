'use client';

import type { ReactNode } from 'react';
import { ConfirmButton } from '@/components/confirm-button';
import type { StateAction } from '@/components/form-state';
import { pendingOf } from './pending';

type Props<R> = {
  /** The server action (bound to the site), posted with `target`: the fields that name what it acts on. */
  action: StateAction<R>;
  target: Record<string, string>;
  /** The button's text, unless `label` says more ("Leave this site"). */
  verb: string;
  label?: string;
  /** The dialog's confirm button says the verb and the noun ("Remove origin"), or the verb alone. */
  noun?: string;
  /** What is removed, read after the button's text by screen readers; the title asks "<verb> <subject>?" unless given. */
  subject: string;
  title?: string;
  /** Id of the element (tabIndex -1) that takes the focus once the object is gone: the section's heading. */
  focusAfter: string;
  /** Unique among the page's dialogs: by default the verb and the last field of `target` (the object's id). */
  id?: string;
  /** What happens once confirmed, in a sentence or two. */
  children: ReactNode;
};

/**
 * "Remove", "Delete", "Revoke"… of one object behind a confirmation dialog: the console's one
 * shape of a destructive button, its texts drawn from the verb, the noun and the subject.
 */
export function RemoveButton<R>({ action, target, verb, label = verb, noun, subject, title, focusAfter, id, children }: Props<R>) {
  const slug = verb.toLowerCase().replace(/ /g, '-');
  return (
    <ConfirmButton
      action={action}
      fields={target}
      label={label}
      subject={subject}
      title={title ?? `${verb} ${subject}?`}
      confirm={noun ? `${verb} ${noun}` : verb}
      pending={pendingOf(verb)}
      focusAfter={focusAfter}
      id={id ?? `${slug}-${Object.values(target).at(-1)}`}
    >
      <p>{children}</p>
    </ConfirmButton>
  );
}
