import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadPipelineConfig, parsePipelineConfig } from '../../src/pipeline/config.js';
import { UserError } from '../../src/model/errors.js';
import { tempFile } from '../helpers/files.js';

const CONFIG_PATH = '/srv/rmreplay/pipeline.json';

function problem(json: unknown): string {
  try {
    parsePipelineConfig(json, CONFIG_PATH);
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    const message = (error as Error).message;
    expect(message).not.toContain('\n');
    return message;
  }
  throw new Error('expected the configuration to be refused');
}

describe('pipeline configuration', () => {
  it('takes the what-if and advise pages as reports beside the queries', () => {
    const config = parsePipelineConfig({ traces: [{ name: 'prod', rmlogs: ['rm.log'] }], reports: { names: ['comparison', 'whatif', 'advise'] } }, CONFIG_PATH);
    expect(config.reports.names).toEqual(['comparison', 'whatif', 'advise']);
    expect(() => parsePipelineConfig({ traces: [{ name: 'prod', rmlogs: ['rm.log'] }], reports: { names: ['nope'] } }, CONFIG_PATH)).toThrow(
      /unknown report; reports are: .*whatif, advise/,
    );
  });

  it('takes paths from the file\'s directory and fills in the defaults', () => {
    const config = parsePipelineConfig(
      {
        traces: [
          { name: 'prod', rmlogs: ['logs/rm-*.log', '/abs/rm.log'] },
          { name: 'day', swim: 'swim/day.tsv', sourceNodes: 600 },
        ],
        compare: [{ traces: ['prod'], policies: ['none', 'am-share:0.1..0.3:0.1'], cluster: 'fb2009-600' }, {}],
      },
      CONFIG_PATH,
    );
    expect(config.traces).toEqual([
      { name: 'prod', rmlogs: ['/srv/rmreplay/logs/rm-*.log', '/abs/rm.log'] },
      { name: 'day', swim: '/srv/rmreplay/swim/day.tsv', sourceNodes: 600 },
    ]);
    // A cluster that is no file beside the configuration is a shipped cluster's name.
    expect(config.compare[0]).toEqual({ traces: ['prod'], policies: ['none', 'am-share:0.1..0.3:0.1'], cluster: 'fb2009-600' });
    // A compare entry without traces runs on every trace.
    expect(config.compare[1]).toEqual({ traces: ['prod', 'day'] });
    expect(config.reports).toEqual({ dir: '/srv/rmreplay/reports', names: ['comparison', 'completion_rate', 'utilization'], keepDays: 14 });
    expect(config.database).toBeUndefined();
  });

  it('names the field of every problem, on one line', () => {
    expect(problem({})).toBe(`${CONFIG_PATH}: traces: Invalid input: expected array, received undefined`);
    expect(problem({ traces: [] })).toBe(`${CONFIG_PATH}: traces: list at least one trace`);
    expect(problem({ traces: [{ name: 'a' }] })).toBe(`${CONFIG_PATH}: traces[0]: give exactly one of "rmlogs" (files or patterns) or "swim" (a file)`);
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'], sourceNodes: 5 }] })).toBe(`${CONFIG_PATH}: traces[0].sourceNodes: applies to SWIM traces only`);
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }], compare: [{ policies: ['none', 'bogus:1'] }] })).toMatch(
      new RegExp(`^${CONFIG_PATH}: compare\\[0\\]\\.policies\\[1\\]: unknown admission policy 'bogus'`),
    );
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }], compare: [{ schedulers: ['capacity-lifo'] }] })).toBe(
      `${CONFIG_PATH}: compare[0].schedulers[0]: unknown scheduler 'capacity-lifo'; valid schedulers are:`,
    );
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }], compare: [{ traces: ['b'] }] })).toBe(
      `${CONFIG_PATH}: compare[0].traces[0]: 'b' is not one of the traces listed: a`,
    );
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }], reports: { names: ['nope'] } })).toMatch(
      new RegExp(`^${CONFIG_PATH}: reports\\.names\\[0\\]: unknown report; reports are: .*comparison`),
    );
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }], reports: { keepDays: 0 } })).toMatch(/: reports\.keepDays: Too small/);
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }, { name: 'a', swim: 'y' }] })).toBe(`${CONFIG_PATH}: traces[1].name: trace 'a' is listed twice`);
    expect(problem({ traces: [{ name: 'a', rmlogs: ['x'] }], report: {} })).toBe(`${CONFIG_PATH}: Unrecognized key: "report"`);
  });

  it('says which file is missing or not JSON', async () => {
    await expect(loadPipelineConfig(join('/nonexistent', 'p.json'))).rejects.toThrow('cannot read pipeline configuration /nonexistent/p.json (ENOENT)');
    const bad = tempFile('bad-pipeline.json', '{ "traces": [ }');
    await expect(loadPipelineConfig(bad)).rejects.toThrow(new RegExp(`^${bad} is not valid JSON: `));
    writeFileSync(bad, JSON.stringify({ traces: [{ name: 'a', swim: 'a.tsv' }], database: 'db/r.duckdb' }));
    expect((await loadPipelineConfig(bad)).database).toBe(join(bad, '..', 'db', 'r.duckdb'));
  });
});
