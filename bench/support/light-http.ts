/**
 * An HTTP/1.1 keep-alive client for the placement bench that does only what the measurement
 * needs, so that 50 clients in the bench's process cost much less than the server they measure
 * (the same reason as the socket benches' light-client.ts).
 *
 * With node:http's client the bench used ~180-210 us of CPU per order on the same two cores as
 * the server (~0.4 of a core at 2,000 orders/s): request objects, header validation, the
 * response parser, an IncomingMessage stream per answer. A trader's phone spends that on its
 * own CPU; what the bench measures is the server.
 *
 * One connection per client, one request at a time on it (no pipelining): the request is written
 * as one buffer, the answer is read as its status line, its `content-length` and that many body
 * bytes (the server under test always sends a length; a chunked answer is refused as an error).
 * It is the same for every server it talks to.
 */
import net from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');

export class LightHttp {
  private socket: net.Socket | null = null;
  private buffer: Buffer = Buffer.alloc(0);
  private pending: { resolve: (status: number) => void; reject: (err: Error) => void } | null = null;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  /** POST `body` (JSON) to `path`; resolves with the answer's status once its body has arrived. */
  post(path: string, token: string, body: string): Promise<number> {
    if (this.pending) return Promise.reject(new Error('one request at a time'));
    const request =
      `POST ${path} HTTP/1.1\r\nhost: ${this.host}:${this.port}\r\nconnection: keep-alive\r\n` +
      `content-type: application/json\r\nauthorization: Bearer ${token}\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    return new Promise<number>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.connection().write(request);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = null;
  }

  private connection(): net.Socket {
    if (this.socket) return this.socket;
    const socket = net.connect({ host: this.host, port: this.port, noDelay: true });
    socket.on('data', (chunk) => this.read(chunk));
    const fail = (err: Error) => {
      this.socket = null;
      this.buffer = Buffer.alloc(0);
      const p = this.pending;
      this.pending = null;
      p?.reject(err);
    };
    socket.on('error', fail);
    socket.on('close', () => fail(new Error('connection closed')));
    this.socket = socket;
    return socket;
  }

  private read(chunk: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, chunk]) : chunk;
    const end = this.buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.buffer.toString('latin1', 0, end);
    const length = /\r\ncontent-length: *(\d+)/i.exec(head);
    if (!length) {
      this.close();
      this.pending?.reject(new Error(`answer without content-length: ${head.split('\r\n')[0]}`));
      this.pending = null;
      return;
    }
    const total = end + HEADER_END.length + Number(length[1]);
    if (this.buffer.length < total) return;
    const status = Number(head.slice(9, 12));
    this.buffer = this.buffer.subarray(total);
    const p = this.pending;
    this.pending = null;
    p?.resolve(status);
  }
}
