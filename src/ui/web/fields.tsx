/**
 * Small form controls bound to signals, each with a visible label.
 * @module
 */
import type { Signal } from "@preact/signals";
import type { ComponentChildren, JSX } from "preact";
import { useId } from "preact/hooks";
import type { Row } from "./storage.ts";
import type { FileJson } from "../protocol.ts";
import { VariableInput } from "./variable_input.tsx";
import type { VariableLookup } from "./variable_marks.ts";

/** An ordinary input, with the variable input's props (a lookup is ignored). */
function PlainInput(
  props: Omit<JSX.InputHTMLAttributes<HTMLInputElement>, "value"> & {
    value: string;
    lookup?: VariableLookup;
  },
): JSX.Element {
  const { lookup: _lookup, ...rest } = props;
  return <input {...rest} />;
}

/**
 * A labelled checkbox bound to a signal.
 *
 * @param props label and signal
 * @returns the checkbox with its label after it
 */
export function CheckField(props: { label: string; value: Signal<boolean> }): JSX.Element {
  return (
    <label class="check">
      <input
        type="checkbox"
        checked={props.value.value}
        onChange={(e) => props.value.value = e.currentTarget.checked}
      />{" "}
      {props.label}
    </label>
  );
}

/** A row that may hold an attached file (multipart form fields). */
export type FileRow = Row & { file?: FileJson };

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
  /** Called after each edit, with the new text. */
  onInput?: (text: string) => void;
  /** The input's id (default: a generated one). */
  id?: string;
  /** Called with pasted text; return true to take the paste over. */
  onPaste?: (text: string) => boolean;
  /** Mark `{{variables}}` inline, with their values on hover (a lookup: another tab's). */
  variables?: boolean | VariableLookup;
}): JSX.Element {
  const generated = useId();
  const id = props.id ?? generated;
  const Input = props.variables ? VariableInput : PlainInput;
  const lookup = typeof props.variables === "function" ? { lookup: props.variables } : {};
  return (
    <div class={`field ${props.class ?? ""}`}>
      <label for={id}>{props.label}</label>
      <Input
        {...lookup}
        id={id}
        // URLs are checked by the server, which explains what is wrong in words.
        type={props.type === "password" ? "password" : "text"}
        inputMode={props.type === "url" ? "url" : undefined}
        value={props.value.value}
        placeholder={props.placeholder}
        spellcheck={false}
        // Never in the browser's form history: URLs carry userinfo and keys, fields tokens.
        autocomplete="off"
        onInput={(e) => {
          props.value.value = e.currentTarget.value;
          props.onInput?.(e.currentTarget.value);
        }}
        onPaste={(e) => {
          if (props.onPaste?.(e.clipboardData?.getData("text") ?? "")) e.preventDefault();
        }}
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

/** The properties of {@link RowTable}. */
export interface RowTableProps<R extends FileRow> {
  label: string;
  rows: Signal<R[]>;
  files?: boolean;
  onChange?: (rows: R[]) => void;
  /** Mark `{{variables}}` in names and values inline, with their values on hover. */
  variables?: boolean | VariableLookup;
}

/**
 * An editable name/value table with enable checkboxes and a trailing empty row.
 *
 * @param props the table's label and rows; `files` adds a file picker per row (multipart
 * forms); `onChange` is called after each edit
 * @returns the table
 */
export function RowTable<R extends FileRow>(props: RowTableProps<R>): JSX.Element {
  const rows: FileRow[] = props.rows.value;
  const shown: FileRow[] = [...rows, { name: "", value: "", enabled: true }];
  const edit = rowEditor(props, rows);
  return (
    <table class="rows" aria-label={props.label}>
      <RowHead files={props.files === true} />
      <tbody>
        {shown.map((row, i) => (
          <EditableRow
            key={i}
            table={props}
            row={row}
            index={i}
            added={i === rows.length}
            edit={edit}
          />
        ))}
      </tbody>
    </table>
  );
}

/** The edits of a {@link RowTable}'s rows (the index after the last row is the empty row). */
interface RowEditor {
  update(index: number, change: Partial<FileRow>): void;
  remove(index: number): void;
  attach(index: number, picked: File | undefined): void;
  detach(index: number): void;
}

function rowEditor<R extends FileRow>(props: RowTableProps<R>, rows: FileRow[]): RowEditor {
  const set = (next: FileRow[]) => {
    props.rows.value = next as R[];
    props.onChange?.(next as R[]);
  };
  const update = (index: number, change: Partial<FileRow>) => {
    set(
      index === rows.length
        ? [...rows, { name: "", value: "", enabled: true, ...change }]
        : rows.map((row, i) => i === index ? { ...row, ...change } : row),
    );
  };
  return {
    update,
    remove: (index) => set(rows.filter((_, i) => i !== index)),
    attach: async (index, picked) => {
      if (!picked) return;
      const file: FileJson = {
        name: picked.name,
        type: picked.type,
        base64: await base64Of(picked),
      };
      const named = index < rows.length && rows[index]!.name !== "";
      update(index, { file, value: picked.name, ...(named ? {} : { name: "file" }) });
    },
    detach: (index) =>
      set(rows.map((r, j) => {
        if (j !== index) return r;
        const { file: _file, ...rest } = r;
        return { ...rest, value: "" };
      })),
  };
}

/** One row of a {@link RowTable}: on, name, value, file (multipart forms), remove. */
function EditableRow<R extends FileRow>(props: {
  table: RowTableProps<R>;
  row: FileRow;
  index: number;
  /** The trailing empty row, which the first edit adds. */
  added: boolean;
  edit: RowEditor;
}): JSX.Element {
  const { table, row, index: i, edit } = props;
  const Input = table.variables ? VariableInput : PlainInput;
  const lookup = typeof table.variables === "function" ? { lookup: table.variables } : {};
  const label = table.label.toLowerCase();
  // The name and value inputs.
  const cell = (part: "name" | "value", extra: { readOnly?: boolean; title?: string }) => (
    <td>
      <Input
        {...lookup}
        aria-label={`${table.label} ${part} ${i + 1}`}
        spellcheck={false}
        autocomplete="off"
        value={row[part]}
        {...extra}
        onInput={(e) => edit.update(i, { [part]: e.currentTarget.value })}
      />
    </td>
  );
  return (
    <tr>
      <td>
        <input
          type="checkbox"
          aria-label={`Use ${label} row ${i + 1}`}
          checked={row.enabled}
          onChange={(e) => edit.update(i, { enabled: e.currentTarget.checked })}
        />
      </td>
      {cell("name", {})}
      {cell("value", {
        readOnly: row.file !== undefined,
        ...(row.file ? { title: `File ${row.file.name} (${row.file.type || "no type"})` } : {}),
      })}
      {table.files && (
        <FileCell
          row={row}
          index={i}
          onDetach={() => edit.detach(i)}
          onAttach={(picked) => void edit.attach(i, picked)}
        />
      )}
      <td>
        {!props.added && (
          <button
            type="button"
            class="icon"
            aria-label={`Remove ${label} row ${i + 1}`}
            onClick={() => edit.remove(i)}
          >
            ×
          </button>
        )}
      </td>
    </tr>
  );
}

/** The column heads of a {@link RowTable} (the check box, file and remove columns unlabelled). */
function RowHead(props: { files: boolean }): JSX.Element {
  return (
    <thead>
      <tr>
        <th scope="col">
          <span class="sr-only">On</span>
        </th>
        <th scope="col">Name</th>
        <th scope="col">Value</th>
        {props.files && (
          <th scope="col">
            <span class="sr-only">File</span>
          </th>
        )}
        <th scope="col">
          <span class="sr-only">Remove</span>
        </th>
      </tr>
    </thead>
  );
}

/** A row's file: Detach when one is attached, else a picker. */
function FileCell(props: {
  row: FileRow;
  index: number;
  onDetach(): void;
  onAttach(picked: File | undefined): void;
}): JSX.Element {
  const n = props.index + 1;
  return (
    <td>
      {props.row.file
        ? (
          <button
            type="button"
            class="icon"
            aria-label={`Detach file ${n}`}
            onClick={props.onDetach}
          >
            Detach
          </button>
        )
        : (
          <label class="attach">
            <span class="sr-only">{`Attach file ${n}`}</span>
            <input
              type="file"
              aria-label={`Attach file ${n}`}
              onChange={(e) => props.onAttach(e.currentTarget.files?.[0])}
            />
          </label>
        )}
    </td>
  );
}

/** Reads a picked file as base64 (the API is JSON). */
function base64Of(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ""));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(file);
  });
}

/** What a form said after its last action: a status line, or an alert for a failure. */
export type FormMessage = { text: string; error: boolean } | undefined;

/**
 * @param props the message, if any
 * @returns its line (nothing when there is none)
 */
export function MessageLine(props: { message: Signal<FormMessage> }): JSX.Element | null {
  const message = props.message.value;
  if (!message) return null;
  return <p role={message.error ? "alert" : "status"} class="note">{message.text}</p>;
}

/**
 * A button that shows and hides what is below it (the workspace's TLS and proxy settings, its
 * cookie jar, the secret form).
 *
 * @param props the box's class, the button's text, the open state, what to do each time it
 *   opens, and the content shown while open
 * @returns the button and, when open, the content
 */
export function Disclosure(props: {
  class: string;
  label: string;
  open: Signal<boolean>;
  onOpen?: () => unknown;
  children: ComponentChildren;
}): JSX.Element {
  const { open } = props;
  return (
    <div class={props.class}>
      <button
        type="button"
        aria-expanded={open.value}
        onClick={() => {
          open.value = !open.value;
          if (open.value) props.onOpen?.();
        }}
      >
        {props.label}
      </button>
      {open.value && props.children}
    </div>
  );
}

/**
 * A form that submits in the page (Enter in a field, or its submit button), never by loading
 * another one; the browser offers no autocompletion in it.
 *
 * @param props its class, what a submit does, its content
 * @returns the form
 */
export function Form(props: {
  class: string;
  onSubmit: () => void;
  children: ComponentChildren;
}): JSX.Element {
  return (
    <form
      autocomplete="off"
      class={props.class}
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
    </form>
  );
}
