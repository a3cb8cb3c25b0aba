/**
 * Vite plugin: after the build, writes a brotli (`.br`, quality 11) and a gzip (`.gz`, level 9)
 * copy next to every text asset of the output (js, css, html, svg, json, txt, webmanifest) when
 * it is smaller, so the server sends compressed files without compressing per request
 * (@fastify/static `preCompressed`, server/app.ts). Source maps are left as they are.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin, ResolvedConfig } from 'vite';

const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;
const MIN_BYTES = 0;

function* files(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else yield full;
  }
}

export function precompress(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'tradeterminal:precompress',
    apply: 'build',
    configResolved(resolved) {
      config = resolved;
    },
    // After every other plugin's files (the prerendered auth.html) are written.
    closeBundle: {
      order: 'post',
      sequential: true,
      handler() {
      const outDir = path.resolve(config.root, config.build.outDir);
      if (!fs.existsSync(outDir)) return;
      for (const file of files(outDir)) {
        if (!COMPRESSIBLE.test(file)) continue;
        const body = fs.readFileSync(file);
        if (body.length < MIN_BYTES) continue;
        const br = zlib.brotliCompressSync(body, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length },
        });
        const gz = zlib.gzipSync(body, { level: 9 });
        // A copy that would not be smaller is not written (the server then sends the file as is).
        if (br.length < body.length) fs.writeFileSync(`${file}.br`, br);
        if (gz.length < body.length) fs.writeFileSync(`${file}.gz`, gz);
      }
      },
    },
  };
}
