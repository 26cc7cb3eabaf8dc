// docs/cli.md: every command's --help, as the program prints it, in one Markdown page.
// scripts/gen-cli-doc.ts writes it and a test fails when the page no longer matches.

import type { Command } from 'commander';
import type { CliContext } from './context.js';
import { createProgram } from './program.js';

/** Wide enough for the option descriptions, narrow enough to read on GitHub without scrolling. */
const HELP_WIDTH = 100;

function fullName(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c !== null; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

function sections(command: Command): string[] {
  // outputHelp rather than helpInformation: the text added after the options (exit statuses, the
  // first command to try) is part of what a user sees.
  let help = '';
  command.configureHelp({ helpWidth: HELP_WIDTH });
  command.configureOutput({ writeOut: (text) => (help += text) });
  command.outputHelp();
  const own = [`## ${fullName(command)}`, '', '```', help.trimEnd(), '```', ''].join('\n');
  return [own, ...command.commands.flatMap(sections)];
}

/** The page, from a program built on `context` (its environment is what `Start with:` hints read). */
export function cliReference(context: CliContext): string {
  const program = createProgram(context);
  const contents = program.commands.map((c) => `- [${fullName(c)}](#${fullName(c).replaceAll(' ', '-')})`);
  return [
    '# rmreplay command line',
    '',
    'Every command\'s `--help`. Generated from the program by `npm run docs:cli`; do not edit by hand',
    '(a test fails when this page and the program disagree).',
    '',
    ...contents,
    '',
    ...sections(program),
  ].join('\n');
}
