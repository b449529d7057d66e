/**
 * What the site's mail tells the domains that send through email: a bounce or an unsubscribe ends
 * an address, a reply answers a message the site sent. Email reports these and knows nothing of
 * who listens: the entry that calls the unsubscribe or the mailbox sync wires the listener in (the
 * sequences' `sequenceReactions`), so the dependency points from sequences down to email.
 */
export interface MailReactions {
  /** The address bounced or unsubscribed on the site. */
  addressEnded(siteId: string, address: string, reason: 'bounced' | 'unsubscribed'): Promise<void>;
  /** A reply arrived, threaded to the site's message `emailMessageId` (the email log's id of what was sent). */
  replyReceived(siteId: string, emailMessageId: string): Promise<void>;
}
