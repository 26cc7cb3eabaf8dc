// Every query in queries/ runs as its file holds it (the text handed to DuckDB unchanged, as the
// duckdb shell would run it) on a database rmreplay wrote, and has its own fixture test: a test
// that runs it by name and compares its rows with values the test writes.

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ingestRmLog, replayRuns } from '../../src/api/index.js';
import { reportNames } from '../../src/reports/index.js';
import { QUERIES_DIR } from '../../src/paths.js';
import { Store } from '../../src/store/index.js';
import { tempFile } from '../helpers/files.js';
import { renderRmLog } from '../fixtures/rmlog/render.js';
import { smallScenario } from '../fixtures/rmlog/scenarios.js';

describe('queries/', () => {
  it('each has a fixture test: a test under test/reports/ that runs it by name and asserts on its rows', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const asserted = new Set<string>();
    for (const file of readdirSync(dir).filter((name) => name.endsWith('.test.ts') && name !== 'every-query.test.ts')) {
      for (const name of queriesAssertedIn(readFileSync(join(dir, file), 'utf8'))) asserted.add(name);
    }
    for (const name of reportNames(QUERIES_DIR)) {
      expect(asserted.has(name), `queries/${name}.sql: no test under test/reports/ runs it by name and asserts on its rows`).toBe(true);
    }
  });

  it('each runs unchanged on a database with a scenario sweep and a replayed RM log', async () => {
    const store = await Store.open(':memory:');
    try {
      await replayRuns(store, { source: { kind: 'scenario', scenario: 'terasort-batch', parameters: { jobs: 4 } }, policies: ['none', 'am-share:0.1', 'autoadmin'] });
      await ingestRmLog(store, { paths: [tempFile('every-query.log', renderRmLog(smallScenario('capacity'), { version: '2.7', layout: 'stock' }))], name: 'log' });
      await replayRuns(store, { source: { kind: 'trace', trace: 'log' } });
      for (const name of reportNames(QUERIES_DIR)) {
        // Its own test checks the figures; here, that the file's text runs as it is.
        const { columns } = await store.query(readFileSync(`${QUERIES_DIR}/${name}.sql`, 'utf8'));
        expect(columns.length, name).toBeGreaterThan(0);
      }
    } finally {
      store.close();
    }
  });
});

/** Matchers that compare a result with values the test gives (not merely that it exists). */
const VALUE_MATCHERS = new Set(['toEqual', 'toStrictEqual', 'toBe', 'toBeCloseTo', 'toMatchObject']);

/**
 * The queries a test file asserts on: those that one test (an `it`) runs by name,
 * `runReportQuery(store, QUERIES_DIR, 'NAME', ...)` in its body or in a function of the file it
 * calls, while comparing something with values written in the test (`expect(...).toEqual([...])`,
 * `.toBe(3)`: a literal, not a variable). A test that only names a query, or only checks that it
 * runs, does not count.
 */
function queriesAssertedIn(text: string): Set<string> {
  const source = ts.createSourceFile('test.ts', text, ts.ScriptTarget.Latest, true);
  const run = (node: ts.Node): string[] => {
    const names: string[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isCallExpression(n) && n.expression.getText(source) === 'runReportQuery') {
        const name = n.arguments[2];
        if (name !== undefined && ts.isStringLiteral(name)) names.push(name.text);
      }
      ts.forEachChild(n, visit);
    };
    visit(node);
    return names;
  };
  // Functions of the file (declared or bound to a const) and the queries each runs.
  const helpers = new Map<string, string[]>();
  const collect = (n: ts.Node): void => {
    if (ts.isFunctionDeclaration(n) && n.name !== undefined) helpers.set(n.name.text, run(n));
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer !== undefined && ts.isArrowFunction(n.initializer)) {
      helpers.set(n.name.text, run(n.initializer));
    }
    ts.forEachChild(n, collect);
  };
  collect(source);

  const asserted = new Set<string>();
  const visitTests = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && /^it(\.|\(|$)/.test(n.expression.getText(source))) {
      const body = n.arguments.find((arg) => ts.isArrowFunction(arg) || ts.isFunctionExpression(arg));
      if (body !== undefined && assertsValues(body, source)) {
        const names = run(body);
        const calls = (m: ts.Node): void => {
          if (ts.isCallExpression(m) && ts.isIdentifier(m.expression)) names.push(...(helpers.get(m.expression.text) ?? []));
          ts.forEachChild(m, calls);
        };
        calls(body);
        for (const name of names) asserted.add(name);
      }
    }
    ts.forEachChild(n, visitTests);
  };
  visitTests(source);
  return asserted;
}

/** Whether a test's body compares something with a literal it writes (an array, object, number or string). */
function assertsValues(body: ts.Node, source: ts.SourceFile): boolean {
  let found = false;
  const literal = (n: ts.Expression): boolean =>
    ts.isArrayLiteralExpression(n) || ts.isObjectLiteralExpression(n) || ts.isNumericLiteral(n) || ts.isStringLiteral(n) ||
    ts.isNoSubstitutionTemplateLiteral(n) || (ts.isPrefixUnaryExpression(n) && ts.isNumericLiteral(n.operand));
  const visit = (n: ts.Node): void => {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && VALUE_MATCHERS.has(n.expression.name.text)) {
      const expected = n.arguments[0];
      if (expected !== undefined && literal(expected) && /^expect\b/.test(n.expression.expression.getText(source))) found = true;
    }
    ts.forEachChild(n, visit);
  };
  visit(body);
  return found;
}
