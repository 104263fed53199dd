#!/usr/bin/env node
// Rangsk's solver (../shared/peers/svsjs, built with `bash build.sh SVS_DIR`)
// counting f-puzzles puzzles up to a limit, for bench/fpuzzles_counts.py.
// The peer's own harness counts to 2; this one asks its public
// `countSolutions` for up to LIMIT.
//
//   node bench/svs_count.mjs SVS_DIR decode FILE
//     FILE: a JSON list of objects whose `puzzle` is an f-puzzles share
//     string; prints the JSON list of the f-puzzles objects.
//   node bench/svs_count.mjs SVS_DIR count LIMIT SECONDS FILE
//     FILE: a JSON list of f-puzzles objects; prints a line per puzzle:
//     index, then the count (LIMIT when it found LIMIT or more),
//     `invalid` (no solution found while the board was set up),
//     `timeout` or `error:...`, then the keys the peer does not read.
//     Each puzzle runs in a worker thread of its own, ended at SECONDS.

import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fs from 'node:fs';
import path from 'node:path';

// Keys that draw and do not constrain, and the ones the peer reads
// through its aggregate builders (as ../shared/peers/svsjs/run_svs.mjs).
const COSMETIC = new Set(['size', 'grid', 'title', 'author', 'ruleset', 'solution', 'successMessage',
    'truecandidatesoptions', 'disabledlogic', 'highlightConflicts', 'onlyUseJSONForPuzzleCheck',
    'circle', 'line', 'text', 'rectangle', 'cage', 'arrowhead']);
const AGGREGATE = ['difference', 'ratio', 'nonconsecutive', 'negative', 'xv', 'sum'];

const bundle = dir => path.join(dir, 'build', 'svs-bundle.mjs');

async function worker() {
    const { dir, board, limit } = workerData;
    const { default: Solver } = await import(pathToFileURL(bundle(dir)).href);
    let last = null;
    const solver = new Solver(msg => { last = msg; });
    let count;
    try {
        await solver.countSolutions({ board: structuredClone(board), options: { maxSolutions: limit } });
        if (last && last.result === 'count' && last.complete) count = String(last.count);
        else if (last && last.result === 'invalid') count = 'invalid';
        else count = `error:unexpected ${JSON.stringify(last)}`;
    } catch (e) {
        // The peer dereferences a board that failed to set up (no
        // solutions) before its null check.
        let invalid = false;
        try { invalid = solver.createBoard(structuredClone(board)) === null; } catch { invalid = false; }
        count = invalid ? 'invalid' : `error:${String(e && e.message ? e.message : e).slice(0, 100)}`;
    }
    parentPort.postMessage(count);
}

function run(dir, board, limit, seconds) {
    return new Promise(resolve => {
        const w = new Worker(fileURLToPath(import.meta.url), { workerData: { dir, board, limit } });
        let done = false;
        const finish = v => { if (!done) { done = true; clearTimeout(timer); w.terminate().finally(() => resolve(v)); } };
        const timer = setTimeout(() => finish('timeout'), seconds * 1000);
        w.on('message', finish);
        w.on('error', e => finish(`error:${String(e && e.message ? e.message : e).slice(0, 100)}`));
        w.on('exit', () => finish('error:worker exited'));
    });
}

async function main() {
    const [dir, mode, ...rest] = process.argv.slice(2);
    if (mode === 'decode' && rest.length === 1) {
        const lz = createRequire(path.join(dir, 'src', 'package.json'))('lz-string');
        const list = JSON.parse(fs.readFileSync(rest[0], 'utf8'));
        console.log(JSON.stringify(list.map(e => JSON.parse(lz.decompressFromBase64(e.puzzle)))));
        return;
    }
    if (mode !== 'count' || rest.length !== 3) {
        console.error('usage: node svs_count.mjs SVS_DIR decode FILE | SVS_DIR count LIMIT SECONDS FILE');
        process.exit(2);
    }
    const [limit, seconds] = [Number(rest[0]), Number(rest[1])];
    const { default: Solver } = await import(pathToFileURL(bundle(dir)).href);
    const builder = new Solver(() => {}).constraintBuilder;
    const known = new Set([...COSMETIC, ...AGGREGATE, ...builder.constraintNames, ...builder.booleanConstraintNames]);
    const list = JSON.parse(fs.readFileSync(rest[2], 'utf8'));
    for (let i = 0; i < list.length; i++) {
        const board = list[i];
        const ignored = Object.keys(board).filter(k => !known.has(k)).filter(k => {
            const v = board[k];
            return v === true || (Array.isArray(v) && v.length > 0);
        });
        console.log([i, await run(dir, board, limit, seconds), ignored.join(',')].join('\t'));
    }
}

if (isMainThread) await main();
else await worker();
