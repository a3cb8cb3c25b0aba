// ESLint flat config: typescript-eslint's recommended rules, the React hooks rules for the SPA,
// and the layer boundaries of docs/architecture.md, checked on every `npm run lint`:
//   - machines/ import no React, DOM, fetch or socket (and nothing from src/ or server/);
//   - server/ never imports src/ or machines/ (it shares contract/ only);
//   - server/domain/ never imports the HTTP side (server/http, server/routes, server/cluster) or the
//     server's wiring (context, base, composition, app, modules, main): the domain speaks no HTTP;
//   - a feature (src/features/<area>) never imports another feature or the app (src/app), and the
//     shared layers (src/shared, src/components, src/i18n, src/services) import no feature and no app.
// Import cycles (type imports count) and the file-name conventions are checked by
// scripts/check-shape.ts, which `npm run lint` runs after ESLint.
// An eslint-disable needs its reason next to it (`-- why`), and an unused one is an error.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const BROWSER_ONLY_GLOBALS = ['window', 'document', 'navigator', 'localStorage', 'sessionStorage', 'location', 'fetch', 'XMLHttpRequest', 'WebSocket', 'EventSource'].map(
  (name) => ({ name, message: 'Machines are pure: effects come in through machine.provide() (src/services/*actors.ts).' }),
);

/** `eslint-disable...` comments must say why (`// eslint-disable-next-line rule -- reason`). */
const local = {
  rules: {
    'disable-needs-reason': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        return {
          Program() {
            for (const comment of context.sourceCode.getAllComments()) {
              if (/^\s*eslint-disable/.test(comment.value) && !/\s--\s*\S/.test(comment.value)) {
                context.report({ loc: comment.loc, message: 'An eslint-disable needs its reason next to it: `-- why`.' });
              }
            }
          },
        };
      },
    },
  },
};

/** no-restricted-imports patterns shared by every file of a layer. */
const layer = (patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

const machinePatterns = [
  { group: ['react', 'react-dom', 'react-dom/*', '@xstate/react', 'wouter', 'wouter/*'], message: 'Machines import no React: views select from them.' },
  { group: ['socket.io-client', 'ofetch', 'ws'], message: 'Machines make no requests: the actors in src/services do.' },
  { regex: '(^|/)(src|server)(/|$)', message: 'Machines depend on contract/ only.' },
];
const serverPatterns = [{ regex: '(^|/)(src|machines)(/|$)', message: 'The server shares contract/ only with the browser side.' }];
const domainMessage = 'The domain speaks no HTTP and takes no server wiring: declare narrow deps (server/domain/<area>/deps.ts) and throw server/domain/errors.ts classes.';
/** From anywhere under server/domain/: up to server/ and into the HTTP side or the wiring. */
const domainPatterns = [
  ...serverPatterns,
  { regex: '^(\\.\\./)+(http|routes|cluster)(/|$)', message: domainMessage },
  { regex: '^(\\.\\./)+(context|base|composition|app|modules|main)$', message: domainMessage },
];
const sharedMessage = 'Shared layers import no feature and no app: features build on them, not the other way round.';
/** From src/{shared,components,i18n,services}/**: `../features/...`, `../app/...` at any depth. */
const sharedPatterns = [{ regex: '^(\\.\\./)+(features|app)(/|$)', message: sharedMessage }];
const featureMessage = 'A feature never imports another feature or the app: move what both need to src/shared or src/components.';
/** From src/features/<area>/<file>: `../<other area>` and `../../app`. */
const featurePatterns = [{ regex: '^\\.\\./(?!\\.)[^/]+', message: featureMessage }, { regex: '^(\\.\\./)+app(/|$)', message: featureMessage }];
/** From src/features/<area>/<dir>/<file>: `../../<other area>` (a sibling folder of the same area is fine). */
const nestedFeaturePatterns = [{ regex: '^\\.\\./\\.\\./(?!\\.)[^/]+', message: featureMessage }, { regex: '^(\\.\\./)+app(/|$)', message: featureMessage }];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'test-results/**', 'playwright-report/**', 'data/**', '**/*.d.ts'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { local },
    rules: {
      'local/disable-needs-reason': 'error',
      // Unused code is already an error of the TypeScript projects (noUnusedLocals/Parameters).
      '@typescript-eslint/no-unused-vars': 'off',
      // Test doubles and JSON bodies are typed `any` on purpose in places; the type checker covers the rest.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-empty-function': 'off',
      'no-empty': ['error', { allowEmptyCatch: true }],
      // Control characters are matched on purpose: text fields refuse them, the PDF check reads raw bytes.
      'no-control-regex': 'off',
    },
  },
  {
    files: ['server/**/*.ts', 'scripts/**/*.{ts,mjs,js}', 'bench/**/*.ts', '*.config.{ts,js}', 'tests/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/components/**/*.{ts,tsx}', 'tests/e2e/**/*.ts'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['src/**/*.{ts,tsx}', 'tests/components/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  { files: ['machines/**/*.ts'], rules: { ...layer(machinePatterns), 'no-restricted-globals': ['error', ...BROWSER_ONLY_GLOBALS] } },
  { files: ['server/**/*.ts'], rules: layer(serverPatterns) },
  { files: ['server/domain/**/*.ts'], rules: layer(domainPatterns) },
  { files: ['src/{shared,components,i18n,services}/**/*.{ts,tsx}'], rules: layer(sharedPatterns) },
  { files: ['src/features/*/*.{ts,tsx}'], rules: layer(featurePatterns) },
  { files: ['src/features/*/*/**/*.{ts,tsx}'], rules: layer(nestedFeaturePatterns) },
);
