import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);

/** The Markdown files people read: the top level, docs/ and src/ui/PROTOCOL.md. */
async function markdownFiles(): Promise<string[]> {
  const files: string[] = [];
  for (const dir of ["", "docs/"]) {
    for await (const entry of Deno.readDir(new URL(dir, ROOT))) {
      if (entry.isFile && entry.name.endsWith(".md")) files.push(`${dir}${entry.name}`);
    }
  }
  files.push("src/ui/PROTOCOL.md");
  return files.sort();
}

/** The text outside fenced code blocks and code spans. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** GitHub's anchors for a file's headings (lower case, punctuation dropped, `-N` for repeats). */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const match of text.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, "").matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = match[1]!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/ /g, "-");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    result.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return result;
}

Deno.test("docs: every relative link in the Markdown files reaches a file and, with #, a heading", async () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(new URL(file, ROOT));
    for (const match of prose(text).matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto: …
      checked++;
      const [path, anchor] = target.split("#") as [string, string | undefined];
      const url = path === "" ? new URL(file, ROOT) : new URL(path, new URL(file, ROOT));
      let linked: string | undefined;
      try {
        const stat = await Deno.stat(url);
        if (anchor !== undefined && stat.isFile) linked = await Deno.readTextFile(url);
      } catch {
        broken.push(`${file}: ${target} (no such file)`);
        continue;
      }
      if (anchor !== undefined && linked !== undefined && !anchors(linked).has(anchor)) {
        broken.push(`${file}: ${target} (no such heading)`);
      }
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked > 40, `only ${checked} links found`);
});

Deno.test("docs: the anchor rule is GitHub's", () => {
  assert.deepEqual(
    [...anchors("# Status capture (`-w`)\n## Request items (HTTPie's syntax)\n## A\n## A\n")],
    ["status-capture--w", "request-items-httpies-syntax", "a", "a-1"],
  );
});
