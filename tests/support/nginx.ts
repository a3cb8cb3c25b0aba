/**
 * Debian's nginx (/usr/sbin/nginx) as the load balancer of the cluster test and bench: a private
 * instance on a free loopback port with a generated configuration in a temp folder (its own pid
 * file, error and access logs and temp paths there, `-p` prefix and `-e` error log, so it never
 * touches /etc/nginx or /var/log, whether run as root or not), in the foreground (`daemon off`)
 * as a child of this process.
 *
 * `siteConfig()` is the part that matters in production: one upstream of the nodes, round-robin
 * with no sticky sessions (every socket.io connection is a websocket, which one node serves for
 * its whole life), the websocket upgrade for /socket.io/, timeouts for long-lived sockets and
 * X-Forwarded-For. docs/deploy.md shows it with placeholders (`siteConfig(DOC_PLACEHOLDERS)`);
 * tests/unit/deploy-doc.test.ts checks the two stay the same text.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port';

export const NGINX_BIN = process.env.NGINX_BIN ?? '/usr/sbin/nginx';

export interface SiteOptions {
  /** What `listen` takes: a port, or address:port. */
  listen: string;
  /** host:port of every node. */
  servers: string[];
  /** server_name; `_` matches any. */
  serverName?: string;
}

/** The values docs/deploy.md shows the configuration with. */
export const DOC_PLACEHOLDERS: SiteOptions = {
  listen: '80',
  servers: ['10.0.0.11:3000', '10.0.0.12:3000', '10.0.0.13:3000'],
  serverName: 'trade.example.com',
};

/**
 * The http-level configuration of the balancer (goes inside `http { }`, e.g. as a file in
 * /etc/nginx/conf.d/). Round-robin over the nodes; a node that refuses a connection or answers
 * 502/503 (it is draining after SIGTERM) is skipped for `fail_timeout` and the request goes to
 * the next one, except a POST that already reached a node (nginx never repeats those, so an
 * order is never placed twice by the balancer).
 */
export function siteConfig(o: SiteOptions): string {
  const servers = o.servers.map((s) => `    server ${s} max_fails=1 fail_timeout=3s;`).join('\n');
  return `# TradeTerminal behind nginx: every node behind one address (docs/deploy.md).
map $http_upgrade $connection_upgrade {
    default upgrade;
    ''      close;
}

upstream tradeterminal {
    # Round-robin, no sticky sessions: socket.io runs on websockets only, and a
    # websocket stays on the node it was opened on for its whole life.
${servers}
    keepalive 32;
}

server {
    listen ${o.listen};
    server_name ${o.serverName ?? '_'};
    # Identity documents: up to 5 files of 10 MB in one upload (contract/profile.ts).
    client_max_body_size 55m;

    proxy_connect_timeout 2s;
    # A node that refuses, times out or is draining (503): try the next one. nginx never
    # passes a POST on once it reached a node (non_idempotent is not listed).
    proxy_next_upstream error timeout http_502 http_503;
    proxy_next_upstream_tries 3;

    # (proxy_set_header is inherited only by a block that sets none itself: each location
    # lists all of its headers.)
    location /socket.io/ {
        proxy_pass http://tradeterminal;
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        proxy_set_header Upgrade $http_upgrade;
        proxy_set_header Connection $connection_upgrade;
        # socket.io pings every 25 s; a socket quiet for longer than this is dead.
        proxy_read_timeout 120s;
        proxy_send_timeout 120s;
        proxy_buffering off;
    }

    location / {
        proxy_pass http://tradeterminal;
        proxy_http_version 1.1;
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_set_header X-Forwarded-Proto $scheme;
        # Keep-alive connections to the nodes (the upstream's keepalive).
        proxy_set_header Connection "";
        proxy_read_timeout 60s;
    }

    # The balancer's own liveness (not a node's): answered by nginx itself.
    location = /nginx-alive {
        access_log off;
        return 200 "ok";
    }
}
`;
}

/** The whole file of a private instance: main context with everything inside `dir`, then the site. */
export function privateConfig(dir: string, site: string): string {
  const runningAsRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const p = (name: string) => path.join(dir, name);
  return `# Private nginx of a test run (tests/support/nginx.ts); everything lives in ${dir}.
daemon off;
master_process on;
worker_processes 1;
worker_rlimit_nofile 16384;
${runningAsRoot ? 'user root root;\n' : ''}pid ${p('nginx.pid')};
error_log ${p('error.log')} warn;

events {
    # Two per proxied socket (client side and node side): room for the bench's thousands.
    worker_connections 8192;
}

http {
    access_log ${p('access.log')};
    client_body_temp_path ${p('tmp/body')};
    proxy_temp_path ${p('tmp/proxy')};
    fastcgi_temp_path ${p('tmp/fastcgi')};
    uwsgi_temp_path ${p('tmp/uwsgi')};
    scgi_temp_path ${p('tmp/scgi')};
    types_hash_max_size 2048;

${site.replace(/^(?=.)/gm, '    ')}}
`;
}

export interface Balancer {
  /** http://127.0.0.1:port */
  url: string;
  port: number;
  dir: string;
  /** The configuration it runs. */
  config: string;
  /** The access log so far (one line per request). */
  accessLog(): string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

async function answers(url: string): Promise<boolean> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

/**
 * Starts nginx in front of `servers` (host:port each) on a free loopback port; resolves once it
 * answers. Retries on another port if the chosen one was taken in the meantime.
 */
export async function startBalancer(servers: string[], options: { timeoutMs?: number } = {}): Promise<Balancer> {
  if (!fs.existsSync(NGINX_BIN)) throw new Error(`nginx not found at ${NGINX_BIN} (Debian: apt-get install nginx; .ci/run does)`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tt-nginx-'));
  fs.mkdirSync(path.join(dir, 'tmp'));
  let lastError = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const config = privateConfig(dir, siteConfig({ listen: `127.0.0.1:${port}`, servers }));
    const confFile = path.join(dir, 'nginx.conf');
    fs.writeFileSync(confFile, config);
    const child: ChildProcess = spawn(NGINX_BIN, ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', confFile], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const url = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + (options.timeoutMs ?? 10_000);
    let up = false;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      if (await answers(`${url}/nginx-alive`)) {
        up = true;
        break;
      }
      await sleep(50);
    }
    if (up) {
      const stop = async () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        child.kill('SIGTERM');
        const done = await Promise.race([exited.then(() => true), sleep(5000).then(() => false)]);
        if (!done) {
          child.kill('SIGKILL');
          await exited;
        }
        fs.rmSync(dir, { recursive: true, force: true });
      };
      const readLog = () => {
        try {
          return fs.readFileSync(path.join(dir, 'access.log'), 'utf8');
        } catch {
          return '';
        }
      };
      return { url, port, dir, config, accessLog: readLog, stop };
    }
    child.kill('SIGKILL');
    let errorLog = '';
    try {
      errorLog = fs.readFileSync(path.join(dir, 'error.log'), 'utf8');
    } catch {
      // no log written
    }
    lastError = `${out}\n${errorLog}`.trim();
    if (!/Address already in use/i.test(lastError)) break;
  }
  throw new Error(`nginx did not start:\n${lastError.slice(-2000)}`);
}
