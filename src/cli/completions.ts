/**
 * `dial completions bash|zsh|fish`: a completion script generated from the live command tree.
 * @module
 */
import { Argument, Command, type CommandUnknownOpts } from "@commander-js/extra-typings";
import type { CliContext } from "./context.ts";

const SHELLS = ["bash", "zsh", "fish"] as const;

const EXAMPLES = `
Examples:
  source <(dial completions bash)                       bash, this shell only
  dial completions bash > ~/.local/share/bash-completion/completions/dial
  source <(dial completions zsh)                        zsh, after compinit
  dial completions zsh > "\${fpath[1]}/_dial"
  dial completions fish > ~/.config/fish/completions/dial.fish

The script covers every command and flag of this dial version and the common HTTP methods.`;

/**
 * @param _context shared exit code and Ctrl-C signal
 * @returns the `completions` command
 */
export function completionsCommand(_context: CliContext) {
  return new Command("completions")
    .description("Print a shell completion script (bash, zsh or fish)")
    .addArgument(new Argument("<shell>", "the shell").choices(SHELLS))
    .addHelpText("after", EXAMPLES)
    .action(async (shell, _flags, command) => {
      let root: CommandUnknownOpts = command;
      while (root.parent) root = root.parent;
      const { completionScript } = await import("./completion/script.ts");
      const { stdout } = await import("../output/terminal.ts");
      await stdout().write(completionScript(shell, root));
    });
}
