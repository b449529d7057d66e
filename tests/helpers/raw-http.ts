import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** Sends raw request bytes (whatever a client library would refuse to send) on one connection; resolves with the responses once the server has answered `count` (HEAD answers, bodiless, are not read). */
export function rawHttp(port: number, bytes: string, count = 1, host = '127.0.0.1'): Promise<RawAnswer[]> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, host);
    let text = '';
    const answers = () => {
      const out: RawAnswer[] = [];
      let rest = text;
      while (rest.length) {
        const end = rest.indexOf('\r\n\r\n');
        if (end === -1) return undefined;
        const [statusLine, ...lines] = rest.slice(0, end).split('\r\n');
        const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]));
        const head = end + 4;
        let body: string;
        if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
          // Chunks until the zero-size one (no trailers sent by Node): `<hex size>\r\n<data>\r\n`.
          body = '';
          let at = head;
          for (;;) {
            const lineEnd = rest.indexOf('\r\n', at);
            if (lineEnd === -1) return undefined;
            const size = parseInt(rest.slice(at, lineEnd), 16);
            if (rest.length < lineEnd + 2 + size + 2) return undefined;
            body += rest.slice(lineEnd + 2, lineEnd + 2 + size);
            at = lineEnd + 2 + size + 2;
            if (size === 0) break;
          }
          rest = rest.slice(at);
        } else {
          const length = Number(headers['content-length'] ?? 0);
          if (rest.length < head + length) return undefined;
          body = rest.slice(head, head + length);
          rest = rest.slice(head + length);
        }
        out.push({ status: Number(statusLine.split(' ')[1]), headers, body });
      }
      return out;
    };
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const got = answers();
      if (got && got.length >= count) {
        socket.destroy();
        resolve(got);
      }
    });
    // A server that closes the connection first: what it answered until then (fewer than `count`).
    socket.on('close', () => resolve(answers() ?? []));
    socket.on('error', reject);
    socket.write(bytes);
  });
}
