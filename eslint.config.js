// Lint is part of `npm test`: typed rules catch unawaited promises and unsafe any
// that the type checker alone lets through.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// The layers of docs/architecture.md section 1: what each folder of src/ may import from the
// others (src/paths.ts is open to all). Dependencies point down; a module imports from its own
// folder or from the folders named here, never up. The CLI may take types from anywhere (they
// vanish at run time) but calls only the API.
const LAYERS = {
  sim: [],
  model: [],
  store: ['model'],
  policies: ['model', 'sim'],
  replay: ['model', 'policies', 'sim'],
  diagnose: ['model'],
  ingest: ['model', 'sim', 'store'],
  scenarios: ['model', 'sim'],
  reports: ['model', 'store'],
  sweep: ['model', 'replay', 'store'],
  queue: ['model', 'replay', 'store'],
  pipeline: ['model', 'policies', 'reports', 'store'],
  api: ['diagnose', 'ingest', 'model', 'pipeline', 'policies', 'queue', 'replay', 'reports', 'scenarios', 'sim', 'store', 'sweep'],
  cli: ['api'],
};
const FOLDERS = Object.keys(LAYERS);

// Subfolders with a rule of their own, which replaces their folder's. Hadoop's XML files become a
// cluster with the model alone, no database or event kernel, plus the scheduler switch
// (policies/scheduling/switch.ts) for a base cluster run by the other scheduler: of ingest/, only
// this folder may import policies/.
const SUBLAYERS = {
  'ingest/hadoop-config': ['model', 'policies'],
};

/** The packages only one folder may import: the database, the queue and the command line each have one home. */
const PACKAGE_HOMES = [
  { group: ['@duckdb/*'], home: 'store', why: 'only src/store/ talks to DuckDB' },
  { group: ['bullmq', 'ioredis'], home: 'queue', why: 'only src/queue/ talks to Redis' },
  { group: ['commander'], home: 'cli', why: 'only src/cli/ parses the command line' },
];

function layerRules(folder, allowed = LAYERS[folder]) {
  const top = folder.split('/')[0];
  const forbidden = FOLDERS.filter((other) => other !== top && !allowed.includes(other));
  const patterns = [
    {
      regex: `^(\\.\\./)+(${forbidden.join('|')})/`,
      message: `src/${folder}/ may import from ${allowed.join(', ') || 'no other folder of src/'} only (the layers in eslint.config.js and docs/architecture.md section 1)`,
      allowTypeImports: folder === 'cli',
    },
    ...PACKAGE_HOMES.filter((p) => p.home !== top).map((p) => ({ group: p.group, message: p.why })),
  ];
  return { files: [`src/${folder}/**/*.ts`], rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns }] } };
}

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'reports/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      'no-console': 'error',
      eqeqeq: ['error', 'always'],
    },
  },
  ...FOLDERS.map((folder) => layerRules(folder)),
  // After their folder's block, so that theirs is the rule that applies.
  ...Object.entries(SUBLAYERS).map(([folder, allowed]) => layerRules(folder, allowed)),
  {
    // The CLI, benchmarks, dev scripts and examples are the only places that talk to the terminal.
    files: ['src/cli/**', 'bench/**', 'scripts/**', 'examples/**'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['eslint.config.js', 'vitest.config.ts', 'bin/**', 'scripts/**', 'examples/**'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: globals.node },
  },
);
