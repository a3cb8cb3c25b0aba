// Worker entry: worker threads do not inherit the TypeScript loader of the main thread (tsx),
// so the worker registers it and then loads the TypeScript worker module.
import { register } from 'tsx/esm/api';

register();
await import('./pdf-worker.ts');
