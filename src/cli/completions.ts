/**
 * `dial completions bash|zsh|fish`: a completion script generated from the declarations.
 * @module
 */
import { lazy } from "./lazy.ts";
import { command } from "./declare.ts";

const EPILOG = `
Examples:
  source <(dial completions bash)                       bash, this shell only
  dial completions bash > ~/.local/share/bash-completion/completions/dial
  source <(dial completions zsh)                        zsh, after compinit
  dial completions zsh > "\${fpath[1]}/_dial"
  dial completions fish > ~/.config/fish/completions/dial.fish

The script covers every command and flag of this dial version and the common HTTP methods.`;

/** `dial completions <shell>`. */
export const completionsCommand = command({
  name: "completions",
  summary: "Print a shell completion script (bash, zsh or fish)",
  args: [{ name: "shell", required: true, choices: ["bash", "zsh", "fish"], help: "the shell" }],
  epilog: EPILOG,
  run: async ({ args }, context) => {
    const { ROOT } = await import("./program.ts");
    const { completionScript } = await lazy.completionScript();
    await context.stdout.write(completionScript(args.shell, ROOT));
    return 0;
  },
});
