import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { currentDate } from '@/lib/core/clock';
import { config } from '@/lib/core/config';
import { log } from '@/lib/core/log';
import type { OutgoingEmail } from '@/lib/providers/email';

/**
 * The account outbox of the embedded default (no SMTP_URL): account mail belongs to no site, so it
 * is not in a site's email log; each message is kept as a file (RFC 5322 text, mode 0600) under
 * DATA_DIR/account-outbox, and the server log names the file, never its content. A newcomer opens
 * it to follow the verification or reset link.
 */
export const accountOutboxDir = () => path.resolve(/*turbopackIgnore: true*/ config().DATA_DIR, 'account-outbox');

export async function keepInAccountOutbox(message: OutgoingEmail): Promise<string> {
  const at = currentDate();
  const dir = accountOutboxDir();
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${at.toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
  const headers = [
    `From: ${message.from}`,
    `To: ${message.to.join(', ')}`,
    `Subject: ${message.subject}`,
    `Date: ${at.toUTCString()}`,
    `Message-ID: ${message.messageId}`,
    'Content-Type: text/plain; charset=utf-8',
  ];
  await writeFile(file, `${headers.join('\r\n')}\r\n\r\n${message.text ?? ''}`, { mode: 0o600 });
  log.info('account email kept in the account outbox (no SMTP_URL): open the file to read it', { file });
  return file;
}
