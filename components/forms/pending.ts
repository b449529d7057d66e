/** What a button says while its action runs, by the verb its text starts with. */
const PENDING = {
  Add: 'Adding…',
  Create: 'Creating…',
  Save: 'Saving…',
  Send: 'Sending…',
  Store: 'Storing…',
  Make: 'Making…',
  Remove: 'Removing…',
  Delete: 'Deleting…',
  Revoke: 'Revoking…',
  Unenroll: 'Unenrolling…',
  Stop: 'Stopping…',
  Leave: 'Leaving…',
  Cancel: 'Cancelling…',
  'Sign out': 'Signing out…',
} as const;

/** A verb a button's text may start with. */
type Verb = keyof typeof PENDING;

/**
 * "Add goal" → "Adding…": what a button says while its action runs, from the verb its text starts
 * with (the longest that fits); a text of another verb says itself, followed by an ellipsis.
 */
export function pendingOf(text: string): string {
  const verb = (Object.keys(PENDING) as Verb[]).filter((v) => text === v || text.startsWith(`${v} `)).sort((a, b) => b.length - a.length)[0];
  return verb ? PENDING[verb] : `${text}…`;
}
