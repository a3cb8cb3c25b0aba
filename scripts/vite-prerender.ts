/**
 * Vite plugin (build only): the first paint of /auth without JavaScript, and the logged-in
 * chunks fetched at once for a visitor with a stored session (issue 11).
 *
 * - A boot script, inline in <head> (after the title) in index.html and auth.html (allowed by the
 *   server's CSP through its hash, server/http/spa-pages.ts). Before the body is parsed it:
 *   applies the stored theme (the app applies the same a moment later); with a stored session (not on the operator console, /admin),
 *   adds `<link rel="modulepreload">` for the feature chunk, the features' English texts, the
 *   shell and the trading page (and preloads their CSS), so they load beside the entry instead
 *   of after it; marks <html data-prerender="off"> when the prerendered /auth is not what the
 *   app will show (a stored session: it redirects to /trading; a stored language other than
 *   English); and, until the app has mounted (<html data-app>), stops a native submit of the
 *   prerendered form (it would put the password in the address) and keeps the form for the
 *   app to submit once started (src/app/boot.ts).
 * - dist/auth.html: index.html with the real /auth rendered into #root at build time
 *   (src/app/prerender.tsx, loaded in Node through a Vite server in SSR mode), its styles
 *   inlined (the entry's and the auth page's, ~8 KB gzip: the paint waits for no other
 *   request) and the auth page's chunks preloaded. The server sends
 *   it for GET /auth; src/main.tsx hydrates it, or drops it when marked off (hidden by the CSS
 *   added here until then).
 *
 * Runs before precompress (whose closeBundle is `order: 'post'`), so auth.html gets its .br/.gz.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Plugin, ResolvedConfig, Rollup } from 'vite';
import { PENDING_SUBMIT } from '../src/app/boot';

/** The modules a logged-in first page needs beyond the entry (src/app/routes.tsx, create-app-actor.ts). */
const LOGGED_IN_MODULES = ['src/services/feature-actors.ts', 'src/i18n/en-features.ts', 'src/app/shell/AppShell.tsx', 'src/features/trading/TradingPage.tsx'];

/** The page prerendered into auth.html: its styles are inlined (painted with it), its scripts preloaded. */
const AUTH_PAGE_MODULE = 'src/features/auth/AuthPage.tsx';

/** The boot script; `preloads` are the asset paths to fetch when a session is stored. */
export function bootScript(preloads: string[]): string {
  return `(function(){var d=document,h=d.documentElement,s=null;try{s=window.localStorage}catch(e){}
function get(k){var v=null;try{v=s&&s.getItem(k)}catch(e){}if(v==null)return null;try{return JSON.parse(v)}catch(e){return v}}
var theme=get('theme'),lang=get('language'),auth=get('auth');
if(theme==='auto')theme=window.matchMedia&&!window.matchMedia('(prefers-color-scheme: dark)').matches?'light':'dark';
if(theme==='light'||theme==='dark'){h.setAttribute('data-theme',theme);h.style.colorScheme=theme}
var session=!!auth&&typeof auth==='object'&&!!(auth.token||auth.sessionType)&&!/^\\/admin(\\/|$)/.test((window.location&&window.location.pathname)||'');
if(session)${JSON.stringify(preloads)}.forEach(function(href){var l=d.createElement('link');if(/\\.css$/.test(href)){l.rel='preload';l.as='style'}else{l.rel='modulepreload'}l.crossOrigin='';l.href=href;d.head.appendChild(l)});
if(session||(lang!=null&&lang!=='en'))h.setAttribute('data-prerender','off');
d.addEventListener('submit',function(e){if(!h.hasAttribute('data-app')){e.preventDefault();window.${PENDING_SUBMIT}=e.target}},true)})();`;
}

/** Hides the prerendered markup of a page marked off until the entry removes it. */
export const PRERENDER_STYLE = 'html[data-prerender="off"] #root[data-prerendered]{display:none}';

type ChunkWithCss = Rollup.OutputChunk & { viteMetadata?: { importedCss: Set<string> } };

/**
 * Asset paths (base-relative, with a leading /) of the chunks holding `modules` and of what
 * they import statically, minus what the entry already loads: the scripts, then their CSS.
 */
export function chunkAssets(bundle: Rollup.OutputBundle, root: string, modules: string[], base = '/'): { js: string[]; css: string[] } {
  const chunks = Object.values(bundle).filter((o): o is ChunkWithCss => o.type === 'chunk');
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const walk = (chunk: ChunkWithCss, into: Set<string>) => {
    if (into.has(chunk.fileName)) return;
    into.add(chunk.fileName);
    for (const file of chunk.imports) {
      const next = byFile.get(file);
      if (next) walk(next, into);
    }
  };
  const entryFiles = new Set<string>();
  for (const chunk of chunks) if (chunk.isEntry) walk(chunk, entryFiles);
  const entryCss = new Set([...entryFiles].flatMap((file) => [...(byFile.get(file)?.viteMetadata?.importedCss ?? [])]));
  const wanted = new Set<string>();
  for (const module of modules) {
    const id = path.join(root, module);
    const chunk = chunks.find((c) => c.moduleIds.includes(id));
    if (!chunk) throw new Error(`prerender: no chunk holds ${module}`);
    walk(chunk, wanted);
  }
  const js: string[] = [];
  const css: string[] = [];
  for (const file of wanted) {
    if (entryFiles.has(file)) continue;
    js.push(base + file);
    for (const sheet of byFile.get(file)?.viteMetadata?.importedCss ?? []) if (!entryCss.has(sheet) && !css.includes(base + sheet)) css.push(base + sheet);
  }
  return { js, css };
}

async function renderAuthMarkup(config: ResolvedConfig): Promise<string> {
  const { createServer } = await import('vite');
  const server = await createServer({
    root: config.root,
    configFile: config.configFile,
    mode: config.mode,
    logLevel: 'error',
    appType: 'custom',
    server: { middlewareMode: true, hmr: false, ws: false },
    optimizeDeps: { noDiscovery: true, include: [] },
  });
  try {
    const module = (await server.ssrLoadModule('/src/app/prerender.tsx')) as { renderAuthPage: () => Promise<string> };
    return await module.renderAuthPage();
  } finally {
    await server.close();
  }
}

export function prerender(): Plugin {
  let config: ResolvedConfig;
  let authAssets: { js: string[]; css: string[] } | null = null;
  return {
    name: 'tradeterminal:prerender',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        if (!ctx.bundle) return html;
        const loggedIn = chunkAssets(ctx.bundle, config.root, LOGGED_IN_MODULES, config.base);
        authAssets = chunkAssets(ctx.bundle, config.root, [AUTH_PAGE_MODULE], config.base);
        const script = bootScript([...loggedIn.js, ...loggedIn.css]);
        if (!html.includes('</title>')) throw new Error('prerender: index.html has no <title>');
        return html.replace('</title>', () => `</title>\n    <script>${script}</script>`);
      },
    },
    closeBundle: {
      sequential: true,
      async handler() {
        const outDir = path.resolve(config.root, config.build.outDir);
        const indexFile = path.join(outDir, 'index.html');
        if (!fs.existsSync(indexFile)) return;
        const index = fs.readFileSync(indexFile, 'utf8');
        const markup = await renderAuthMarkup(config);
        if (!index.includes('<div id="root"></div>')) throw new Error('prerender: index.html has no empty #root');
        if (!authAssets) throw new Error('prerender: the auth page chunk was not found');
        // The first paint waits for no other request: the page's styles (the entry's, then the
        // auth page's) are inlined in place of the entry's stylesheet links.
        const LINK = /<link rel="stylesheet" crossorigin href="([^"]+)">\s*/g;
        const sheets = [...[...index.matchAll(LINK)].map((m) => m[1]), ...authAssets.css];
        const css = sheets
          .map((href) => {
            const text = fs.readFileSync(path.join(outDir, href.slice(config.base.length)), 'utf8');
            if (/url\((?!\s*['"]?(data:|\/))/.test(text)) throw new Error(`prerender: ${href} has a relative url(), which would break inlined`);
            return text;
          })
          .join('\n');
        const head = [`<style>${css}\n${PRERENDER_STYLE}</style>`, ...authAssets.js.map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)];
        const page = index
          .replace(LINK, '')
          .replace('</head>', () => `  ${head.join('\n    ')}\n  </head>`)
          .replace('<div id="root"></div>', () => `<div id="root" data-prerendered="auth">${markup}</div>`);
        fs.writeFileSync(path.join(outDir, 'auth.html'), page);
      },
    },
  };
}
