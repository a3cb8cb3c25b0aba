/**
 * The tree the SPA renders, shared by the browser entry (src/main.tsx, which mounts it or
 * hydrates the prerendered /auth with it) and the build-time prerender (src/app/prerender.tsx),
 * so the two cannot drift apart: hydration needs the same elements on both sides.
 * `ssrPath` is given only at build time (wouter reads the address in the browser).
 */
import { StrictMode } from 'react';
import { Router } from 'wouter';
import type { AppRuntime } from '../shared/runtime';
import { RuntimeProvider } from '../shared/runtime';
import { App } from './App';

export function AppRoot({ runtime, ssrPath, ssrSearch }: { runtime: AppRuntime; ssrPath?: string; ssrSearch?: string }) {
  return (
    <StrictMode>
      <RuntimeProvider runtime={runtime}>
        <Router ssrPath={ssrPath} ssrSearch={ssrSearch}>
          <App />
        </Router>
      </RuntimeProvider>
    </StrictMode>
  );
}
