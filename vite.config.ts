import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { precompress } from './scripts/vite-precompress';
import { localePart } from './scripts/vite-locale-part';
import { prerender } from './scripts/vite-prerender';

// The SPA build. In dev (`npm run dev`) Vite serves on 5173 and proxies the API, the
// socket and the static images to the server on API_PORT (default 3001).
const apiPort = Number(process.env.API_PORT ?? 3001);
const target = `http://127.0.0.1:${apiPort}`;

export default defineConfig({
  // prerender: the boot script and dist/auth.html (the /auth form painted before any script).
  // precompress: .br and .gz next to every text asset (served with @fastify/static preCompressed).
  plugins: [localePart(), react(), prerender(), precompress()],
  publicDir: 'public',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    chunkSizeWarningLimit: 900,
    rolldownOptions: {
      // Our own modules do nothing on import but define things (and import their CSS): one
      // that is imported but not used, e.g. through the src/components barrel, is left out,
      // with its CSS, instead of pulling every re-exported component into the first page.
      treeshake: {
        moduleSideEffects: [
          { test: /\.css$/, sideEffects: true },
          { test: /\/(src|machines|contract|locales)\/.*\.(ts|tsx|json)$/, sideEffects: false, external: false },
        ],
      },
    },
  },
  server: {
    port: 5173,
    strictPort: false,
    proxy: {
      '/api': { target, changeOrigin: true },
      '/socket.io': { target, ws: true, changeOrigin: true },
      '/checkout': { target, changeOrigin: true },
      '/uploads': { target, changeOrigin: true },
    },
  },
});
