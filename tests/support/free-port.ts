/**
 * A TCP port on 127.0.0.1 that nobody listens on right now (the OS picks it). A tiny race with
 * other processes remains between this answer and the caller's bind: the harnesses that start
 * servers (PostgreSQL, Redis, nginx, the cluster's nodes) retry once when the bind fails.
 */
import net from 'node:net';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      const port = typeof addr === 'object' && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}
