/**
 * The GraphQL tab.
 * @module
 */
import type { JSX } from "preact";

/** @returns the GraphQL tab */
export function GraphqlTab(): JSX.Element {
  return (
    <section class="placeholder" aria-label="GraphQL">
      <p>
        The GraphQL explorer is being built. From the command line: <code>dial graphql</code>
      </p>
    </section>
  );
}
