// Shell completion for rmreplay, written from the commander program itself so that a new command
// or option completes without anyone editing a script. bash gets a completion function; zsh runs
// the same function through its bash-compatibility layer (bashcompinit).

import type { Command, Option } from 'commander';

export const COMPLETION_SHELLS = ['bash', 'zsh'] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

interface CommandWords {
  /** The subcommand names leading here, space-separated ('' for the program, 'report whatif' ...). */
  path: string;
  /** What may follow: subcommand names, argument values, then option flags. */
  words: string[];
  /** Options that take a value, with the values they accept when commander knows them. */
  valued: { flags: string[]; choices: readonly string[] }[];
}

function optionFlags(option: Option): string[] {
  return [option.short, option.long].filter((flag): flag is string => flag !== undefined);
}

function collect(command: Command, path: string, into: CommandWords[]): void {
  const options = [...command.options];
  const words = [
    ...command.commands.map((sub) => sub.name()),
    // Positional arguments with a fixed set of values (`completion bash|zsh`, report names).
    ...command.registeredArguments.flatMap((argument) => argument.argChoices ?? []),
    ...options.flatMap(optionFlags),
    '--help',
  ];
  const valued = options
    .filter((option) => option.required || option.optional)
    .map((option) => ({ flags: optionFlags(option), choices: option.argChoices ?? [] }));
  into.push({ path, words: [...new Set(words)], valued });
  for (const sub of command.commands) collect(sub, path === '' ? sub.name() : `${path} ${sub.name()}`, into);
}

/** Single-quoted for the shell: the words are flags and command names, but quote them all the same. */
function quote(text: string): string {
  return `'${text.replaceAll("'", "'\\''")}'`;
}

function bashFunction(program: Command): string {
  const name = program.name();
  const fn = `_${name.replaceAll(/[^A-Za-z0-9_]/g, '_')}_complete`;
  const all: CommandWords[] = [];
  collect(program, '', all);
  const pathCases = all
    .filter((entry) => entry.path !== '')
    .map((entry) => `      ${quote(entry.path)}) path=${quote(entry.path)} ;;`);
  const valueCases = all.flatMap((entry) =>
    entry.valued.map(
      (option) =>
        `    ${quote(entry.path)}:${option.flags.map(quote).join(`|${quote(entry.path)}:`)}) ` +
        (option.choices.length > 0
          ? `COMPREPLY=($(compgen -W ${quote(option.choices.join(' '))} -- "$cur")); return ;;`
          : 'return ;;'),
    ),
  );
  const wordCases = all.map((entry) => `    ${quote(entry.path)}) words=${quote(entry.words.join(' '))} ;;`);
  return [
    `# ${name} completion for bash: source it, or put it in /etc/bash_completion.d/${name}`,
    `${fn}() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" prev="${COMP_WORDS[COMP_CWORD-1]}" path="" words="" i w next',
    // The subcommands typed so far; anything else (options, their values, arguments) is skipped.
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    w="${COMP_WORDS[i]}"',
    '    [[ $w == -* ]] && continue',
    '    if [[ -z $path ]]; then next="$w"; else next="$path $w"; fi',
    '    case "$next" in',
    ...pathCases,
    '    esac',
    '  done',
    // After an option that takes a value: its choices, or nothing so that the shell offers files.
    '  case "$path:$prev" in',
    ...valueCases,
    '  esac',
    '  case "$path" in',
    ...wordCases,
    '  esac',
    '  COMPREPLY=($(compgen -W "$words" -- "$cur"))',
    '}',
    `complete -o default -F ${fn} ${name}`,
    '',
  ].join('\n');
}

export function completionScript(program: Command, shell: CompletionShell): string {
  if (shell === 'bash') return bashFunction(program);
  return [
    `#compdef ${program.name()}`,
    `# ${program.name()} completion for zsh: the bash function below, through zsh's bashcompinit`,
    'autoload -U +X bashcompinit && bashcompinit',
    bashFunction(program),
  ].join('\n');
}
