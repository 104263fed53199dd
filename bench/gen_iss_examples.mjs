// Dumps ISS's own example puzzles (its data/example_puzzles.js, the example
// selector of sigh's Interactive Sudoku Solver, MIT licence) and the
// puzzles of its data/collections.js that carry a solution, as JSON
// [{group, name, input, solution, src}], for tests/corpus/iss/; with
// --unsolved, instead the collections' puzzles that carry none (no
// `solution` field).
//
// usage: node bench/gen_iss_examples.mjs ../shared/peers/iss/src > tests/corpus/iss/examples.json
//        node bench/gen_iss_examples.mjs ../shared/peers/iss/src --unsolved > tests/corpus/iss/unsolved.json
import path from 'node:path';
import { pathToFileURL } from 'node:url';

globalThis.self = globalThis;
self.VERSION_PARAM = '';
const root = path.resolve(process.argv[2]);
const unsolved = process.argv.includes('--unsolved');
const load = (file) => import(pathToFileURL(path.join(root, 'data', file)).href);
const examples = await load('example_puzzles.js');
const collections = await load('collections.js');

const out = [];
const seen = new Set();
const push = (group, cfg) => {
  const entry = typeof cfg === 'string' ? examples.PUZZLE_INDEX.get(cfg) : cfg;
  // Entries that are user scripts (`/data/scripts/...`) are not strings.
  if (!entry || typeof entry.input !== 'string' || !entry.solution !== unsolved) return;
  if (seen.has(entry.input) || entry.input.startsWith('/')) return;
  seen.add(entry.input);
  const src = Array.isArray(entry.src) ? entry.src[0] : (entry.src || '');
  out.push({ group, name: entry.name, input: entry.input, ...(unsolved ? {} : { solution: entry.solution }), src });
};
for (const g of unsolved ? [] : examples.DISPLAYED_EXAMPLE_GROUPS) {
  for (const p of g.puzzles) push('examples: ' + g.name, p);
}
for (const [key, value] of Object.entries(collections)) {
  if (!Array.isArray(value)) continue;
  for (const p of value) push('collections: ' + key, p);
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
