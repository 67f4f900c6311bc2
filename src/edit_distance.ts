/**
 * The one edit distance behind every "did you mean": the CLI's flags and commands
 * (`cli/parse.ts`) and gRPC's service and method names (`grpc/schema.ts`).
 * @module
 */

/**
 * @param a a word
 * @param b another
 * @returns the Levenshtein distance between them: the fewest insertions, deletions and
 * substitutions that turn one into the other
 */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(
        row[j]! + 1,
        next[j - 1]! + 1,
        row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    }
    row = next;
  }
  return row[b.length]!;
}
