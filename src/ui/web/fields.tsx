/**
 * Small form controls bound to signals, each with a visible label.
 * @module
 */
import type { Signal } from "@preact/signals";
import type { JSX } from "preact";
import { useId } from "preact/hooks";
import type { Row } from "./storage.ts";

/**
 * A labelled text input bound to a signal.
 *
 * @param props label, signal, type, placeholder
 * @returns the field
 */
export function TextField(props: {
  label: string;
  value: Signal<string>;
  type?: "text" | "password" | "url";
  placeholder?: string;
  class?: string;
}): JSX.Element {
  const id = useId();
  return (
    <div class={`field ${props.class ?? ""}`}>
      <label for={id}>{props.label}</label>
      <input
        id={id}
        // URLs are checked by the server, which explains what is wrong in words.
        type={props.type === "password" ? "password" : "text"}
        inputMode={props.type === "url" ? "url" : undefined}
        value={props.value.value}
        placeholder={props.placeholder}
        spellcheck={false}
        // Never in the browser's form history: URLs carry userinfo and keys, fields tokens.
        autocomplete="off"
        onInput={(e) => props.value.value = e.currentTarget.value}
      />
    </div>
  );
}

/**
 * A labelled select bound to a signal.
 *
 * @param props label, signal, options
 * @returns the field
 */
export function SelectField<T extends string>(props: {
  label: string;
  value: Signal<T>;
  options: ReadonlyArray<readonly [T, string]>;
}): JSX.Element {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        value={props.value.value}
        onChange={(e) => {
          const chosen = props.options.find(([v]) => v === e.currentTarget.value);
          if (chosen) props.value.value = chosen[0];
        }}
      >
        {props.options.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
      </select>
    </div>
  );
}

/**
 * An editable name/value table with enable checkboxes and a trailing empty row.
 *
 * @param props the table's label and rows
 * @returns the table
 */
export function RowTable(props: { label: string; rows: Signal<Row[]> }): JSX.Element {
  const rows = props.rows.value;
  const shown = [...rows, { name: "", value: "", enabled: true }];
  const update = (index: number, change: Partial<Row>) => {
    props.rows.value = index === rows.length
      ? [...rows, { name: "", value: "", enabled: true, ...change }]
      : rows.map((row, i) => i === index ? { ...row, ...change } : row);
  };
  const remove = (index: number) => {
    props.rows.value = rows.filter((_, i) => i !== index);
  };
  return (
    <table class="rows" aria-label={props.label}>
      <thead>
        <tr>
          <th scope="col">
            <span class="sr-only">On</span>
          </th>
          <th scope="col">Name</th>
          <th scope="col">Value</th>
          <th scope="col">
            <span class="sr-only">Remove</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {shown.map((row, i) => (
          <tr key={i}>
            <td>
              <input
                type="checkbox"
                aria-label={`Use ${props.label.toLowerCase()} row ${i + 1}`}
                checked={row.enabled}
                onChange={(e) => update(i, { enabled: e.currentTarget.checked })}
              />
            </td>
            <td>
              <input
                aria-label={`${props.label} name ${i + 1}`}
                value={row.name}
                spellcheck={false}
                autocomplete="off"
                onInput={(e) => update(i, { name: e.currentTarget.value })}
              />
            </td>
            <td>
              <input
                aria-label={`${props.label} value ${i + 1}`}
                value={row.value}
                spellcheck={false}
                autocomplete="off"
                onInput={(e) => update(i, { value: e.currentTarget.value })}
              />
            </td>
            <td>
              {i < rows.length
                ? (
                  <button
                    type="button"
                    class="icon"
                    aria-label={`Remove ${props.label.toLowerCase()} row ${i + 1}`}
                    onClick={() => remove(i)}
                  >
                    ×
                  </button>
                )
                : null}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
