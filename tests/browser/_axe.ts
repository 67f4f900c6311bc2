/**
 * axe-core in a page of the app: the accessibility checks every view must pass.
 * @module
 */
import axe from "axe-core";
import type { Page } from "playwright-core";

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/**
 * @param page the page as it is
 * @returns axe-core's violations that are critical, serious or moderate, in words
 */
export async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const found = await page.evaluate("axe.run(document).then((r) => r.violations)") as Violation[];
  return found.filter((v) => v.impact !== "minor").map((v) =>
    `${v.impact} ${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).join(", ")})`
  );
}
