// `npm run dev`: the API server (tsx watch, port API_PORT=3001) and Vite (port 5173, proxying
// /api, /socket.io, /checkout and /uploads to it). Ctrl+C stops both.
import { spawn } from 'node:child_process';

const apiPort = process.env.API_PORT ?? '3001';
const env = { ...process.env, API_PORT: apiPort };
const children = [
  spawn('npx', ['tsx', 'watch', 'server/main.ts'], {
    stdio: 'inherit',
    env: { ...env, PORT: apiPort, PUBLIC_URL: process.env.PUBLIC_URL ?? 'http://localhost:5173', DIST_DIR: './no-dist' },
  }),
  spawn('npx', ['vite'], { stdio: 'inherit', env }),
];
console.log(`\n  Dev: open http://localhost:5173 (add ?inspect to watch the actors in the Stately inspector)\n`);

let stopping = false;
function stop(code = 0) {
  if (stopping) return;
  stopping = true;
  for (const c of children) c.kill('SIGTERM');
  setTimeout(() => process.exit(code), 500);
}
for (const c of children) c.on('exit', (code) => stop(code ?? 0));
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));
