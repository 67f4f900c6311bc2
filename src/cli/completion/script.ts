/**
 * Picks the generator for a shell.
 * @module
 */
import type { Command } from "../declare.ts";
import { bashScript } from "./bash.ts";
import { fishScript } from "./fish.ts";
import { completionModel } from "./model.ts";
import { zshScript } from "./zsh.ts";

/**
 * @param shell `bash`, `zsh` or `fish`
 * @param root the root command
 * @returns the completion script
 */
export function completionScript(
  shell: "bash" | "zsh" | "fish",
  root: Command,
): string {
  const models = completionModel(root);
  switch (shell) {
    case "bash":
      return bashScript(models);
    case "zsh":
      return zshScript(models);
    case "fish":
      return fishScript(models);
  }
}
