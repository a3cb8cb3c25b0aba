// Deep-merge translations into locales/{en,ru,es}.json, safely while others edit them too.
//   node scripts/locales-merge.mjs fragment.json
// fragment.json: { "en": { "ns": { "key": "..." } }, "ru": {...}, "es": {...} }
// Existing keys are overwritten by the fragment; everything else is kept. A lock directory
// serialises concurrent merges; files are written pretty-printed with 2 spaces.
import fs from 'node:fs';
import path from 'node:path';

const file = process.argv[2];
if (!file) {
  console.error('usage: node scripts/locales-merge.mjs fragment.json');
  process.exit(2);
}
const fragment = JSON.parse(fs.readFileSync(file, 'utf8'));
const dir = path.resolve('locales');
const lock = path.join(dir, '.merge-lock');

function merge(target, source) {
  for (const [k, v] of Object.entries(source)) {
    if (v && typeof v === 'object' && !Array.isArray(v)) {
      if (!target[k] || typeof target[k] !== 'object') target[k] = {};
      merge(target[k], v);
    } else {
      target[k] = v;
    }
  }
}

const started = Date.now();
for (;;) {
  try {
    fs.mkdirSync(lock);
    break;
  } catch {
    if (Date.now() - started > 10_000) {
      console.error('locales are locked (remove locales/.merge-lock if stale)');
      process.exit(1);
    }
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 50);
  }
}
try {
  for (const lang of ['en', 'ru', 'es']) {
    if (!fragment[lang]) continue;
    const p = path.join(dir, `${lang}.json`);
    const data = JSON.parse(fs.readFileSync(p, 'utf8'));
    merge(data, fragment[lang]);
    const tmp = `${p}.tmp-${process.pid}`;
    fs.writeFileSync(tmp, JSON.stringify(data, null, 2) + '\n');
    fs.renameSync(tmp, p);
  }
  console.log(`merged ${file} into locales/{${Object.keys(fragment).join(',')}}.json`);
} finally {
  fs.rmdirSync(lock);
}
