// The layering rule of docs/architecture.md section 1 is enforced by lint (eslint.config.js): a
// module that imports up, or a package outside its one home, fails `npm test`. Linted here with
// just those rules (they need no type information), on source text placed where it would live.

import { ESLint } from 'eslint';
import type { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const RULE = '@typescript-eslint/no-restricted-imports';
// The repository's own lint configuration (a JS module with no declarations of its own).
const CONFIG_URL = new URL('../../eslint.config.js', import.meta.url).href;

async function importErrors(filePath: string, source: string): Promise<string[]> {
  const { default: config } = (await import(CONFIG_URL)) as { default: Linter.Config[] };
  const layerBlocks = config.filter((block) => block.rules?.[RULE] !== undefined);
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfigFile: true,
    overrideConfig: [
      { files: ['**/*.ts'], languageOptions: { parser: tseslint.parser }, plugins: { '@typescript-eslint': tseslint.plugin } },
      ...layerBlocks,
    ],
  });
  const [result] = await eslint.lintText(source, { filePath });
  return result!.messages.map((m) => `${m.ruleId ?? 'parse'}: ${m.message}`);
}

describe('layers enforced by lint', () => {
  it('refuses an import up the layers: the store importing the replay engine, the ingest the API', async () => {
    expect(await importErrors('src/store/violation.ts', "import { replay } from '../replay/engine.js';\nexport const r = replay;\n")).toEqual([
      `${RULE}: '../replay/engine.js' import is restricted from being used by a pattern. src/store/ may import from model only (the layers in eslint.config.js and docs/architecture.md section 1)`,
    ]);
    const fromIngest = await importErrors('src/ingest/rmlog/violation.ts', "import type { ReplayRun } from '../../api/replay.js';\nexport type R = ReplayRun;\n");
    expect(fromIngest).toHaveLength(1);
    expect(fromIngest[0]).toContain('src/ingest/ may import from model, sim, store only');
  });

  it('lets a folder import down, and the CLI take types from anywhere but call only the API', async () => {
    expect(await importErrors('src/store/fine.ts', "import { UserError } from '../model/errors.js';\nexport const e = UserError;\n")).toEqual([]);
    expect(await importErrors('src/cli/commands/fine.ts', "import type { Workload } from '../../model/workload.js';\nimport { replayRuns } from '../../api/index.js';\nexport type W = Workload;\nexport const r = replayRuns;\n")).toEqual([]);
    const call = await importErrors('src/cli/commands/violation.ts', "import { saveRun } from '../../store/index.js';\nexport const s = saveRun;\n");
    expect(call).toHaveLength(1);
    expect(call[0]).toContain('src/cli/ may import from api only');
  });

  it('holds the Hadoop configuration import to the model and the scheduler switch, which the rest of ingest may not import', async () => {
    const switchImport = "import { switchScheduler } from '../../policies/scheduling/index.js';\nexport const s = switchScheduler;\n";
    expect(await importErrors('src/ingest/hadoop-config/fine.ts', switchImport)).toEqual([]);
    const fromRmlog = await importErrors('src/ingest/rmlog/violation.ts', switchImport);
    expect(fromRmlog).toHaveLength(1);
    expect(fromRmlog[0]).toContain('src/ingest/ may import from model, sim, store only');
    const store = await importErrors('src/ingest/hadoop-config/violation.ts', "import { Store } from '../../store/index.js';\nexport const s = Store;\n");
    expect(store).toHaveLength(1);
    expect(store[0]).toContain('src/ingest/hadoop-config/ may import from model, policies only');
    const duckdb = await importErrors('src/ingest/hadoop-config/violation.ts', "import { DuckDBInstance } from '@duckdb/node-api';\nexport const d = DuckDBInstance;\n");
    expect(duckdb).toEqual([`${RULE}: '@duckdb/node-api' import is restricted from being used by a pattern. only src/store/ talks to DuckDB`]);
  });

  it('keeps DuckDB in the store, Redis in the queue and commander in the CLI', async () => {
    expect(await importErrors('src/api/violation.ts', "import { DuckDBInstance } from '@duckdb/node-api';\nexport const d = DuckDBInstance;\n")).toEqual([
      `${RULE}: '@duckdb/node-api' import is restricted from being used by a pattern. only src/store/ talks to DuckDB`,
    ]);
    expect(await importErrors('src/replay/violation.ts', "import { Queue } from 'bullmq';\nexport const q = Queue;\n")).toHaveLength(1);
    expect(await importErrors('src/queue/fine.ts', "import { Queue } from 'bullmq';\nexport const q = Queue;\n")).toEqual([]);
  });
});
