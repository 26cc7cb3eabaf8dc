// `rmreplay completion bash|zsh`: the shell completion script, made from the program's own
// commands and options (src/cli/completion.ts).

import { Argument, Command } from 'commander';

import type { CompletionShell } from '../completion.js';
import { COMPLETION_SHELLS, completionScript } from '../completion.js';
import type { CliContext } from '../context.js';
import { print } from '../context.js';

export function completionCommand(context: CliContext): Command {
  return new Command('completion')
    .description(
      'print a shell completion script: `source <(rmreplay completion bash)` in ~/.bashrc, or ' +
        '`rmreplay completion zsh > "${fpath[1]}/_rmreplay"` for zsh',
    )
    .addArgument(new Argument('<shell>', 'the shell').choices(COMPLETION_SHELLS))
    .action((shell: CompletionShell, _options: unknown, command: Command) => {
      // The completion covers the whole program: the command's parent, with every sibling.
      print(context, completionScript(command.parent ?? command, shell));
    });
}
