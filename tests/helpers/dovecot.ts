import { spawn } from 'node:child_process';
import { accessSync, chmodSync, chownSync, constants, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { freeLoopbackPort } from './serve';

/**
 * A real IMAP server for the mailbox suites: Dovecot (`apt-get install dovecot-imapd`) started
 * on a free loopback port with a throwaway configuration, passwd-file and maildirs under a
 * temporary directory, plain IMAP (no TLS) and PLAIN/LOGIN authentication. Ready when a
 * connection reads the IMAP greeting. Messages arrive by IMAP APPEND, as a mail server would
 * deliver them.
 */
export interface DovecotServer {
  host: string;
  port: number;
  /** Creates a mailbox account with this password. */
  addUser(username: string, password: string): void;
  /** Delivers a raw RFC 5322 message into the user's INBOX (IMAP APPEND); answers its UID. */
  deliver(username: string, raw: string): Promise<number>;
  stop(): Promise<void>;
}

export const DOVECOT_BINARY = process.env.DOVECOT_BINARY ?? '/usr/sbin/dovecot';

export function dovecotAvailable(): boolean {
  try {
    accessSync(DOVECOT_BINARY, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Resolves when a connection reads `* OK` from the server; rejects on anything else. */
function readGreeting(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    let seen = '';
    socket.setTimeout(2_000, () => socket.destroy(new Error('no greeting')));
    socket.on('data', (chunk) => {
      seen += chunk.toString('latin1');
      if (seen.includes('\r\n')) {
        socket.end();
        if (seen.startsWith('* OK')) resolve();
        else reject(new Error(`unexpected greeting: ${seen.slice(0, 100)}`));
      }
    });
    socket.on('error', reject);
  });
}

/** An existing system user, by name, with its uid and gid. */
function systemUser(names: string[]): { name: string; uid: number; gid: number } {
  const passwd = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .map((l) => l.split(':'));
  for (const name of names) {
    const entry = passwd.find((f) => f[0] === name);
    if (entry) return { name, uid: Number(entry[2]), gid: Number(entry[3]) };
  }
  throw new Error(`none of the users ${names.join(', ')} exists`);
}

export async function startDovecot(): Promise<DovecotServer> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sgp-dovecot-'));
  chmodSync(dir, 0o755);
  const asRoot = process.getuid?.() === 0;
  const me = os.userInfo();
  // As root, Dovecot's own processes run as its unprivileged users and the mail as `nobody`;
  // otherwise everything runs as the current user.
  const internal = asRoot ? systemUser(['dovecot', 'nobody']) : { name: me.username, uid: me.uid, gid: me.gid };
  const login = asRoot ? systemUser(['dovenull', 'nobody']) : internal;
  const mailOwner = asRoot ? systemUser(['nobody']) : internal;
  const mailDir = path.join(dir, 'mail');
  mkdirSync(mailDir);
  if (asRoot) chownSync(mailDir, mailOwner.uid, mailOwner.gid);
  const passwdFile = path.join(dir, 'passwd');
  writeFileSync(passwdFile, '', { mode: 0o644 });
  const port = await freeLoopbackPort();
  const configFile = path.join(dir, 'dovecot.conf');
  writeFileSync(
    configFile,
    [
      `base_dir = ${dir}/run`,
      `state_dir = ${dir}/state`,
      `instance_name = sgp-test-${path.basename(dir)}`,
      `log_path = ${dir}/dovecot.log`,
      `default_internal_user = ${internal.name}`,
      `default_login_user = ${login.name}`,
      'protocols = imap',
      'listen = 127.0.0.1',
      'ssl = no',
      'disable_plaintext_auth = no',
      'auth_mechanisms = plain login',
      // A refused password is answered at once (the default waits 2 s).
      'auth_failure_delay = 0',
      `first_valid_uid = ${Math.min(mailOwner.uid, 1)}`,
      'last_valid_uid = 0',
      `mail_location = maildir:${mailDir}/%u`,
      'service imap-login {',
      `  inet_listener imap {\n    address = 127.0.0.1\n    port = ${port}\n  }`,
      '  inet_listener imaps {\n    port = 0\n  }',
      '}',
      'service anvil {\n  unix_listener anvil-auth-penalty {\n    mode = 0\n  }\n}',
      `passdb {\n  driver = passwd-file\n  args = scheme=PLAIN username_format=%u ${passwdFile}\n}`,
      `userdb {\n  driver = static\n  args = uid=${mailOwner.uid} gid=${mailOwner.gid} home=${mailDir}/%u\n}`,
      '',
    ].join('\n'),
  );
  const child = spawn(DOVECOT_BINARY, ['-F', '-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}): ${output}${safeRead(path.join(dir, 'dovecot.log'))}`);
    try {
      await readGreeting(port);
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        child.kill('SIGTERM');
        throw new Error(`dovecot did not greet on 127.0.0.1:${port}: ${String(error)}\n${output}${safeRead(path.join(dir, 'dovecot.log'))}`);
      }
      // Not listening yet: the next attempt is a new connection after the process had a turn.
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const passwords = new Map<string, string>();
  return {
    host: '127.0.0.1',
    port,
    addUser(username, password) {
      passwords.set(username, password);
      writeFileSync(passwdFile, [...passwords].map(([u, p]) => `${u}:{PLAIN}${p}::::::`).join('\n') + '\n');
    },
    async deliver(username, raw) {
      const client = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { user: username, pass: passwords.get(username)! },
        logger: false,
      });
      await client.connect();
      try {
        const appended = await client.append('INBOX', raw);
        if (!appended || !appended.uid) throw new Error('APPEND did not answer a UID');
        return appended.uid;
      } finally {
        await client.logout();
      }
    },
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function safeRead(file: string): string {
  try {
    return readFileSync(file, 'utf8').slice(-2_000);
  } catch {
    return '';
  }
}

/** A raw RFC 5322 message (CRLF lines) with these headers and body, to append to a mailbox. */
export const rawMessage = (headers: Record<string, string>, body: string, contentType = 'text/plain; charset=utf-8') =>
  [
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `Content-Type: ${contentType}`,
    'MIME-Version: 1.0',
    `Date: ${new Date().toUTCString()}`,
    '',
    body,
    '',
  ].join('\r\n');
