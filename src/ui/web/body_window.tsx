/**
 * The viewer of a large JSON body: the viewer's worker (`json_worker.ts`) formats the body as
 * its parts arrive and keeps the formatted text; the page holds a window of its lines in a
 * read-only CodeMirror, placed in a scroller as tall as the whole text, and asks the worker for
 * another window as the view nears the window's edge. So the page's thread never holds (or
 * lays out, or collects) the whole formatted document: a 5 MB body is ~250,000 lines.
 *
 * What works on the whole body, not the window: the search panel's next and previous match
 * (Enter, Shift+Enter, F3, Mod-G: the worker searches), Ctrl/Cmd+Home and End, Ctrl/Cmd+A then
 * copy, and the viewer's Copy button. For the two copies the page asks the worker for the whole
 * formatted text when the user first copies (one string, not a document of lines; a body nobody
 * copies never crosses to the page), then keeps it: a copy the text is not here for yet is written
 * when it comes (the clipboard API), and "Copied" says when. Line numbers are the body's.
 * @module
 */
import type { JSX } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";
import {
  EditorSelection,
  EditorState,
  type Extension,
  Prec,
  StateEffect,
  StateField,
  Text,
  Transaction,
} from "@codemirror/state";
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  type ViewUpdate,
} from "@codemirror/view";
import { defaultKeymap } from "@codemirror/commands";
import { bracketMatching } from "@codemirror/language";
import {
  getSearchQuery,
  highlightSelectionMatches,
  search,
  searchKeymap,
} from "@codemirror/search";
import { nextTask } from "./api.ts";
import { editorTheme } from "./editor_theme.ts";
import { visibleJsonMarks } from "./json_marks.ts";
import {
  firstScreen,
  type FormatAnswer,
  type FormatRequest,
  type Position,
  type Query,
  type QueryAnswer,
  WINDOW_LINES,
} from "./json_worker.ts";
import type { BodyParts } from "./response_viewer.tsx";

/** Lines from the window's edge at which the view asks for the next window. */
const MARGIN = 500;
/**
 * A row's height in CSS pixels, set (not measured): a line outside the window counts as one row
 * (its wrapping is not known until it is in the window), so the window's place is its first line
 * times this; a measured height (19.6 px, or 19.62 once more lines are measured) would move the
 * place by thousands of pixels 150,000 lines down.
 */
const LINE_HEIGHT = 20;

/** What the window's owner sees of it. */
export interface BodyWindowEvents {
  /**
   * Called as formatting starts, and when it ends with what gives the whole formatted text (asked
   * of the worker at the first call; Copy waits for the end).
   */
  formatting: (whole?: () => Promise<string>) => void;
  /** The text is not JSON: the owner shows it as it is. */
  failed: () => void;
  /** The whole text was copied (Ctrl/Cmd+A, then copy). */
  copied: () => void;
}

const setStart = StateEffect.define<number>();
/** The body's line (0-based) at the window's first line. */
const windowStart = StateField.define<number>({
  create: () => 0,
  update: (start, tr) => tr.effects.reduce((s, e) => e.is(setStart) ? e.value : s, start),
});

/** The window's fixed line height: one theme for every window (a new one adds its rules anew). */
const windowTheme = EditorView.theme({ ".cm-scroller": { lineHeight: `${LINE_HEIGHT}px` } });

/**
 * What a window's editor asks of the window that shows it: an editor's state is made before its
 * body arrives (`prepareViewer`), so its keys and events call whichever window took it.
 */
interface WindowHooks {
  /** The search panel's next (previous) match, over the whole body. */
  find(view: EditorView, backwards: boolean): boolean;
  /** Ctrl/Cmd+Home (line 0) and End (Infinity). */
  reach(line: number, atEnd: boolean): void;
  /** A copy event: whether the window took it. */
  copy(event: ClipboardEvent, view: EditorView): boolean;
  focus(): void;
  update(update: ViewUpdate): void;
  /** The wheel turned (or a touch moved) over the editor. */
  wheel(): void;
  /** Something CodeMirror follows scrolled (told just before CodeMirror measures for it). */
  scroll(event: Event): void;
}

/** What an editor no window has taken yet (or the sample's) does: nothing. */
const IDLE: WindowHooks = {
  find: () => false,
  reach: () => {},
  copy: () => false,
  focus: () => {},
  update: () => {},
  wheel: () => {},
  scroll: () => {},
};

/** A window's editor in its scroller's elements, and what its keys and events call. */
interface WindowEditor {
  view: EditorView;
  hooks: WindowHooks;
  scroller: HTMLElement;
  space: HTMLElement;
  host: HTMLElement;
}

/**
 * @param label the editor's accessible name
 * @param hooks what its keys and events call
 * @returns the window editor's extensions: a read-only, focusable viewer with the body's line
 *   numbers, JSON colours of the lines in view, a bracket's match looked for up to 2,000
 *   characters away, search, and lines wrapped (as the viewer of a small body)
 */
function windowExtensions(label: string, hooks: WindowHooks): Extension {
  const find = (backwards: boolean) => (view: EditorView) => hooks.find(view, backwards);
  const keys = [
    { key: "Enter", scope: "search-panel", run: find(false), shift: find(true) },
    { key: "F3", run: find(false), shift: find(true), scope: "editor search-panel" },
    { key: "Mod-g", run: find(false), shift: find(true), scope: "editor search-panel" },
    { key: "Mod-Home", run: () => (hooks.reach(0, false), true) },
    { key: "Mod-End", run: () => (hooks.reach(Infinity, true), true) },
  ];
  return [
    windowStart,
    lineNumbers({ formatNumber: (n, state) => String(n + state.field(windowStart)) }),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    drawSelection(),
    highlightActiveLine(),
    highlightSelectionMatches(),
    search(),
    Prec.highest(keymap.of(keys)),
    keymap.of([...defaultKeymap, ...searchKeymap]),
    editorTheme,
    windowTheme,
    EditorView.lineWrapping,
    EditorState.readOnly.of(true),
    EditorView.contentAttributes.of({ "aria-label": label }),
    visibleJsonMarks,
    bracketMatching({ maxScanDistance: 2_000 }),
    EditorView.domEventHandlers({
      copy: (event, view) => hooks.copy(event, view),
      focus: () => hooks.focus(),
    }),
    EditorView.updateListener.of((update) => hooks.update(update)),
    // As CodeMirror tells a wheel's turn (it then keeps the view's top line itself), and a
    // scroll of the window's scroller (the editor is made in it, so CodeMirror hears it from the
    // start; a listener of the window's own would be told before or after CodeMirror's, as
    // CodeMirror adds its listeners again).
    EditorView.domEventObservers({
      wheel: () => hooks.wheel(),
      touchmove: () => hooks.wheel(),
      scroll: (event) => hooks.scroll(event),
    }),
  ];
}

/**
 * @param text formatted JSON (its lines end in "\n" only)
 * @returns it as a document: split by a string, not by the pattern CodeMirror splits a string
 *   with (which took as long as the rest of an append)
 */
function lines(text: string): Text {
  return Text.of(text.split("\n"));
}

/**
 * @param props the body's parts, whether it is only the start of the response's, the editor's
 *   label, and what the owner is told
 * @returns the scroller with the window's editor
 */
export function BodyWindow(props: WindowProps): JSX.Element {
  const slot = useRef<HTMLDivElement>(null);
  // Put on the page before the first paint, in the task the body's first part arrives in.
  useLayoutEffect(() => {
    const shown = new LineWindow(props, slot.current!);
    return () => shown.stop();
  }, [props.parts]);
  // The scroller is made with its editor (CodeMirror then follows its scroll from the start); its
  // slot has no box of its own.
  return <div class="body-window-slot" ref={slot} />;
}

/** What a window is made of: the body, and the scroller's elements. */
interface WindowProps {
  parts: BodyParts;
  truncated: boolean;
  label: string;
  events: BodyWindowEvents;
}

/**
 * A body's window: formats the body in the worker and shows its first window, then follows the
 * scroller.
 */
class LineWindow {
  /** The element that scrolls, the one as tall as the whole text, and the editor's (placed at the
   * window's first line). */
  readonly scroller: HTMLElement;
  readonly space: HTMLElement;
  readonly host: HTMLElement;
  readonly #editor: EditorView;
  readonly #job: ReturnType<typeof formatInWorker>;
  readonly #events: BodyWindowEvents;
  /** Lines formatted so far. */
  #total = 1;
  /** Whether the first window is still being filled from the worker's pieces. */
  #filling = true;
  /** The windows being asked for, and the line to center the next one on once it is in. */
  #asking: Promise<void> | undefined;
  #next: number | undefined;
  /** Where the scroller was at its last scroll event (or where it was put). */
  #seen = 0;
  /**
   * The body's line at the view's top and how far into it (px): it stays there while the
   * window's lines are measured (wrapped lines) or another window comes.
   */
  #anchor: [line: number, into: number] = [0, 0];
  /** The anchor's height in the scroller's text as last placed. */
  #anchorY = 0;
  /** When the wheel last turned (or a touch moved) over the editor (`Date.now()`). */
  #wheel = 0;
  /** Whether another window is being put in (the view is kept whatever CodeMirror does). */
  #moving = false;
  /** Whether another window has come and CodeMirror has not measured it yet. */
  #settling = false;
  /** The first screen formatted here, while the worker's same first message has not come. */
  #early: string | undefined;
  #showing: number | undefined;
  /** Whether the whole text is formatted. */
  #done = false;
  /** The whole formatted text, once asked for (and once it came). */
  #asked: Promise<string> | undefined;
  #whole: string | undefined;

  /**
   * @param props the body and what the owner is told
   * @param slot where the window's scroller goes
   */
  constructor(props: WindowProps, slot: HTMLElement) {
    this.#events = props.events;
    const editor = takeEditor(props.label);
    this.#editor = editor.view;
    ({ scroller: this.scroller, space: this.space, host: this.host } = editor);
    slot.appendChild(this.scroller);
    const { scroller } = this;
    Object.assign(
      editor.hooks,
      {
        find: (view, backwards) => this.#find(view, backwards),
        reach: (line, atEnd) => void this.#reach(line, atEnd),
        copy: (event, view) => this.#copyAll(event, view),
        // The browser shows a focused element's top (the window's first line, lines away): the
        // view stays where it was.
        focus: () => void (scroller.scrollTop = this.#seen),
        wheel: () => void (this.#wheel = Date.now()),
        // The window's scroller, once CodeMirror has measured for it (it does as it tells it).
        scroll: (event) => void (event.target === scroller && queueMicrotask(this.#follow)),
        update: (update) => {
          // A selection shown (Ctrl+End, a search's match, the keyboard): that is the view now.
          if (update.transactions.some((tr) => tr.scrollIntoView || tr.isUserEvent("select"))) {
            this.#settling = false;
          }
          if (!update.heightChanged) return;
          const measured = update.transactions.length === 0;
          const settling = this.#settling && measured;
          if (settling) this.#settling = false;
          this.#place(this.#moving ? "always" : settling ? "rest" : undefined);
        },
      } satisfies WindowHooks,
    );
    this.#job = formatInWorker(props.parts, props.truncated, (answer) => this.#take(answer));
    this.#events.formatting();
    // The first screen, formatted here (the worker's first message is the same text) and shown
    // in the next task: the editor was made in this one.
    this.#showing = setTimeout(() => {
      const screen = firstScreen(props.parts.parts[0] ?? "");
      if (screen === undefined) return;
      this.#replace(lines(this.#early = screen));
      this.#place();
    });
  }

  /** Stops (another body, or Raw). */
  stop(): void {
    this.scroller.remove();
    // A body left before its end is not being formatted any more.
    if (!this.#done) this.#events.formatting(() => Promise.resolve(""));
    clearTimeout(this.#showing);
    this.#job.stop();
    this.#editor.destroy();
  }

  /** The body's line (0-based) at the window's first line. */
  get #start(): number {
    return this.#editor.state.field(windowStart);
  }

  /**
   * Sizes the scroller's space to the whole text (the window's lines as measured, the others a
   * row each), puts the window at its line, and keeps the view's top line where it was.
   *
   * @param keep "always" (another window comes: the view is kept whatever CodeMirror does),
   *   "rest" (the first measure of another window: CodeMirror, where it keeps the view, may
   *   stop short of it; the rest is made up here), or "unless-codemirror"
   */
  #place(keep: "always" | "rest" | "unless-codemirror" = "unless-codemirror"): void {
    const { contentHeight, state } = this.#editor;
    this.space.style.height = `${(this.#total - state.doc.lines) * LINE_HEIGHT + contentHeight}px`;
    this.host.style.top = `${this.#start * LINE_HEIGHT}px`;
    // The view's top line moved by as much as the lines above it grew or shrank: so does the view
    // (a scroll not yet told by its event included). CodeMirror does it itself, measuring, while
    // the editor has focus or the wheel turns.
    const y = this.#heightOf(...this.#anchor);
    const moved = y - this.#anchorY;
    this.#anchorY = y;
    const itself = keep !== "always" && (this.#editor.hasFocus || this.#wheeled());
    // What CodeMirror moved the view by, measuring (a scroll since was told by its event).
    const byCodeMirror = itself && keep === "rest" ? this.scroller.scrollTop - this.#seen : moved;
    const rest = itself ? moved - byCodeMirror : moved;
    this.#seen += moved - rest;
    if (Math.abs(rest) < 0.5) return;
    this.scroller.scrollTop += rest;
    this.#seen += rest;
  }

  /** @returns whether the wheel turned (or a touch moved) over the editor in the last 100 ms */
  #wheeled(): boolean {
    return Date.now() - this.#wheel < 100;
  }

  /**
   * @param y a height in the scroller's text
   * @returns the body's line (0-based) there, and how far into it
   */
  #lineAt(y: number): [line: number, into: number] {
    const view = this.#editor;
    const top = this.#start * LINE_HEIGHT;
    if (y < top) return [Math.floor(y / LINE_HEIGHT), y % LINE_HEIGHT];
    const lines = view.state.doc.lines;
    const below = y - top - view.contentHeight;
    if (below >= 0) {
      const line = Math.min(this.#total - 1, this.#start + lines + Math.floor(below / LINE_HEIGHT));
      return [line, y - this.#heightOf(line, 0)];
    }
    const inside = y - top - view.documentPadding.top;
    const block = view.lineBlockAtHeight(Math.max(0, inside));
    return [this.#start + view.state.doc.lineAt(block.from).number - 1, inside - block.top];
  }

  /**
   * @param line a body's line (0-based)
   * @param into how far into it
   * @returns its height in the scroller's text
   */
  #heightOf(line: number, into: number): number {
    const view = this.#editor;
    const top = this.#start * LINE_HEIGHT;
    const lines = view.state.doc.lines;
    if (line < this.#start) return line * LINE_HEIGHT + into;
    if (line >= this.#start + lines) {
      return top + view.contentHeight + (line - this.#start - lines) * LINE_HEIGHT + into;
    }
    const block = view.lineBlockAt(view.state.doc.line(line - this.#start + 1).from);
    return top + view.documentPadding.top + block.top + into;
  }

  #replace(text: Text, from = 0): void {
    this.#editor.dispatch({
      changes: { from, to: this.#editor.state.doc.length, insert: text },
      annotations: Transaction.addToHistory.of(false),
    });
  }

  /** @param answer the worker's next piece, or count of lines */
  #take(answer: FormatAnswer): void {
    clearTimeout(this.#showing);
    if ("failed" in answer) return this.#events.failed();
    this.#total = answer.lines;
    if (answer.chunk !== undefined && this.#filling) {
      if (this.#early === undefined) {
        this.#replace(lines(answer.chunk), this.#editor.state.doc.length);
      } else if (answer.chunk !== this.#early) this.#replace(lines(answer.chunk));
    }
    this.#early = undefined;
    this.#place();
    if (answer.done) {
      this.#done = true;
      this.#events.formatting(() => this.#text());
    }
  }

  /** @returns the whole formatted text, asked of the worker once */
  #text(): Promise<string> {
    return this.#asked ??= this.#job.ask({ whole: true }).then((a) => this.#whole = a.text ?? "");
  }

  /**
   * Shows the body's lines from `from` in the window, keeping the selection where it is in the
   * body when it is still in the window (else the cursor goes to the first line in view).
   */
  #show(from: number, text: string): void {
    this.#filling = false;
    // The view's top line now (a scroll may not have told its event yet): kept there.
    this.#seen = this.#anchorY = this.scroller.scrollTop;
    this.#anchor = this.#lineAt(this.#seen);
    const doc = lines(text);
    const selection = this.#editor.state.selection.main;
    const local = (p: Position) =>
      p[0] >= from && p[0] < from + doc.lines
        ? Math.min(doc.line(p[0] - from + 1).from + p[1], doc.line(p[0] - from + 1).to)
        : undefined;
    const a = local(this.#toBody(selection.anchor));
    const h = local(this.#toBody(selection.head));
    const inView = local([this.#anchor[0], 0]) ?? 0;
    this.#moving = true;
    try {
      this.#editor.dispatch({
        changes: { from: 0, to: this.#editor.state.doc.length, insert: doc },
        effects: setStart.of(from),
        selection: a !== undefined && h !== undefined ? { anchor: a, head: h } : { anchor: inView },
        annotations: Transaction.addToHistory.of(false),
      });
    } finally {
      this.#moving = false;
    }
    this.#place("always");
    this.#settling = true;
  }

  #toBody(pos: number): Position {
    const line = this.#editor.state.doc.lineAt(pos);
    return [this.#start + line.number - 1, pos - line.from];
  }

  /**
   * Asks for the window around a line; one question at a time, the latest one next.
   *
   * @returns when the windows asked for so far are shown (the last one asked for last)
   */
  #ask(center: number): Promise<void> {
    this.#next = center;
    return this.#asking ??= (async () => {
      for (let line = this.#next; line !== undefined; line = this.#next) {
        this.#next = undefined;
        const from = Math.max(0, Math.min(line - WINDOW_LINES / 2, this.#total - WINDOW_LINES));
        const answer = await this.#job.ask({ lines: [from, from + WINDOW_LINES] });
        this.#show(from, answer.text ?? "");
      }
      this.#asking = undefined;
    })();
  }

  /** Follows the scroller: a view near the window's edge asks for the window around it. */
  readonly #follow = () => {
    const { scrollTop, clientHeight } = this.scroller;
    this.#seen = this.#anchorY = scrollTop;
    this.#anchor = this.#lineAt(scrollTop);
    const top = this.#anchor[0];
    const bottom = this.#lineAt(scrollTop + clientHeight)[0] + 1;
    const end = this.#start + this.#editor.state.doc.lines;
    const nearTop = this.#start > 0 && top < this.#start + MARGIN;
    if (nearTop || (end < this.#total && bottom > end - MARGIN)) {
      void this.#ask((top + bottom) >> 1);
    }
  };

  /** Puts the window around a body's line (when it is not in it), then selects there. */
  async #reach(line: number, atEnd: boolean, select?: [Position, Position]): Promise<void> {
    const target = Math.min(line, this.#total - 1);
    if (target < this.#start || target >= this.#start + this.#editor.state.doc.lines) {
      // The view goes there first: the window asked for is shown around it, not kept at the old
      // view (a scroll there, told before the selection is shown, would ask for the old place).
      this.scroller.scrollTop = this.#heightOf(target, 0);
      await this.#ask(target);
    }
    const doc = this.#editor.state.doc;
    const at = (p: Position) => {
      const l = doc.line(Math.max(1, Math.min(doc.lines, p[0] - this.#start + 1)));
      return Math.min(l.from + p[1], l.to);
    };
    const range = select
      ? EditorSelection.range(at(select[0]), at(select[1]))
      : EditorSelection.cursor(atEnd ? doc.length : 0);
    this.#editor.dispatch({
      selection: range,
      effects: [
        EditorView.scrollIntoView(range, { y: select ? "center" : "nearest" }),
        ...(select ? [EditorView.announce.of(`current match on line ${select[0][0] + 1}.`)] : []),
      ],
      userEvent: select ? "select.search" : "select",
    });
  }

  /** The search panel's next (previous) match, over the whole body. */
  #find(view: EditorView, backwards: boolean): boolean {
    const query = getSearchQuery(view.state);
    if (!query.valid) return false;
    const selection = view.state.selection.main;
    const [line, column] = this.#toBody(backwards ? selection.from : selection.to);
    const { search, regexp, literal, caseSensitive, wholeWord } = query;
    const spec = { search, regexp, literal, caseSensitive, wholeWord, line, column, backwards };
    void this.#job.ask({ find: spec }).then((a) =>
      a.found && this.#reach(a.found[0][0], false, a.found)
    );
    return true;
  }

  /**
   * Ctrl/Cmd+A, then copy: when the window is not the whole body, the whole body is copied (in
   * the event once the page has it, else through the clipboard API when it comes).
   */
  #copyAll(event: ClipboardEvent, view: EditorView): boolean {
    const { from, to } = view.state.selection.main;
    const all = this.#start === 0 && view.state.doc.lines >= this.#total;
    if (from !== 0 || to !== view.state.doc.length || all || !this.#done) return false;
    event.preventDefault();
    if (this.#whole !== undefined) {
      event.clipboardData?.setData("text/plain", this.#whole);
      this.#events.copied();
    } else {
      void this.#text().then((text) => navigator.clipboard?.writeText(text))
        .then(() => this.#events.copied(), () => {});
    }
    return true;
  }
}

let worker: Worker | undefined;
let lastId = 0;
let lastSeq = 0;
/** Whether the viewer's code has run once on this page (on a sample), or is running. */
let warmed = false;
/** By viewer (its label): the state made for its next window's editor before its body came. */
const spares = new Map<string, { state: EditorState; hooks: WindowHooks } | "making">();

/**
 * @param label the editor's accessible name
 * @returns a window editor's state, and what its keys and events call
 */
function windowState(label: string): { state: EditorState; hooks: WindowHooks } {
  const hooks = { ...IDLE };
  return { state: EditorState.create({ extensions: windowExtensions(label, hooks) }), hooks };
}

/**
 * @param label the editor's accessible name
 * @returns an editor for a window, made in its scroller's elements (off the page: the window puts
 *   it there in the same task, before CodeMirror first measures it), from the state made for it
 *   as the request went when there is one
 */
function takeEditor(label: string): WindowEditor {
  const spare = spares.get(label);
  const { state, hooks } = spare && spare !== "making" ? spare : windowState(label);
  if (spare !== "making") spares.delete(label);
  const element = (name: string, parent?: HTMLElement) => {
    const made = document.createElement("div");
    made.className = name;
    parent?.appendChild(made);
    return made;
  };
  const scroller = element("editor viewer body-window");
  const space = element("body-window-space", scroller);
  const host = element("body-window-lines", space);
  const view = new EditorView({ state, parent: host });
  return { view, hooks, scroller, space, host };
}

/**
 * Readies the viewer for a body (once the tab is idle, and as a request is sent), in tasks of its
 * own: starts the viewers' worker (a long body's first part then does not wait for it), the first
 * time on a page runs the window editor's code on a sample (its state, its view, then three
 * changes, each a task: a long body's first part then runs compiled code), and makes the next
 * window's editor state.
 *
 * @param label the accessible name of the viewer the body will be shown in
 */
export function prepareViewer(label: string): void {
  jsonWorker();
  if (spares.has(label)) return;
  spares.set(label, "making");
  void (async () => {
    try {
      if (!warmed) {
        warmed = true;
        await warmUp();
      }
      await nextTask();
      if (spares.get(label) === "making") spares.set(label, windowState(label));
      // For scripts/bench_ui_body.ts: Send is clicked once the page is ready for a body.
      performance.mark("dial:viewer-ready");
    } finally {
      if (spares.get(label) === "making") spares.delete(label);
    }
  })();
}

/** Runs the window editor's code on a sample, each step in a task of its own. */
async function warmUp(): Promise<void> {
  await nextTask();
  const sample = Array.from({ length: 150 }, (_, i) => ({ id: i, name: `item ${i}`, ok: 1 }));
  firstScreen(JSON.stringify(sample));
  await nextTask();
  const { state } = windowState("");
  await nextTask();
  // Off the page (an editor there draws every line: a few lines).
  const view = new EditorView({ state });
  const few = lines(Array.from({ length: 24 }, (_, i) => `  "line ${i}": [${i}],`).join("\n"));
  // A first screen, then a piece appended.
  for (const from of [0, few.length]) {
    await nextTask();
    view.dispatch({
      changes: { from, insert: few },
      annotations: Transaction.addToHistory.of(false),
    });
  }
  // Then on the page for a frame, unseen and out of the accessibility tree: CodeMirror measures
  // it there (not off the page), so its measuring runs compiled for a body's first screen.
  await nextTask();
  const holder = document.createElement("div");
  holder.className = "body-window-warm-up";
  holder.setAttribute("aria-hidden", "true");
  holder.inert = true;
  holder.append(view.dom);
  document.body.append(holder);
  view.requestMeasure();
  await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
  holder.remove();
  view.destroy();
}

/**
 * {@link prepareViewer} once the page is idle: a tab that can show a long body readies it as it
 * is shown, so its first Send does not make the editor while the answer arrives.
 *
 * @param label the viewer's accessible name
 * @returns cancels it (the tab is gone)
 */
export function prepareViewerWhenIdle(label: string): () => void {
  const idle = requestIdleCallback(() => prepareViewer(label));
  return () => cancelIdleCallback(idle);
}

/** @returns the viewers' one worker, started at the first call */
export function jsonWorker(): Worker {
  if (worker) return worker;
  const started = worker = new Worker("/json_worker.js", { type: "module" });
  // One that failed is started again for the next body.
  started.addEventListener("error", () => worker === started && (worker = undefined));
  return started;
}

/** A query without its ids (the body's and the answer's). */
type Ask =
  | { lines: [number, number] }
  | { whole: true }
  | { find: Extract<Query, { find: unknown }>["find"] };

/**
 * Pretty-prints a large JSON body in the viewer's worker (`json_worker.ts`, the CLI's
 * streaming printer), each part as it arrives: the page's thread only hands over parts and
 * takes the first window's pieces, then the count of lines, and asks for windows, the whole
 * text and matches of a search.
 *
 * @param parts the body (its text is JSON, or starts like it)
 * @param truncated whether the body is only the start of the response's
 * @param take called with each answer, in order
 * @returns what asks the worker about this body, and what stops (another body, or Raw)
 */
function formatInWorker(
  parts: BodyParts,
  truncated: boolean,
  take: (answer: FormatAnswer) => void,
): { ask: (query: Ask) => Promise<QueryAnswer>; stop: () => void } {
  const id = ++lastId;
  const running = jsonWorker();
  const waiting = new Map<number, (answer: QueryAnswer) => void>();
  let done = false;
  let failed = false;
  let sent = 0;
  const finish = () => {
    done = true;
    unlisten();
  };
  // Each part goes to the worker as it arrives; after a failure, the body is shown once whole.
  const feed = () => {
    if (failed) return;
    while (sent < parts.parts.length) {
      const part = parts.parts[sent]!;
      const request: FormatRequest = { id, part, last: ++sent === parts.count, truncated };
      running.postMessage(request);
    }
  };
  const fail = () => {
    if (failed) return;
    failed = true;
    finish();
    take({ id, failed: true });
  };
  const listen = (event: MessageEvent<FormatAnswer | QueryAnswer>) => {
    const answer = event.data;
    if (answer.id !== id) return;
    if ("seq" in answer) {
      waiting.get(answer.seq)?.(answer);
      waiting.delete(answer.seq);
    } else if ("failed" in answer) fail();
    else {
      if (answer.done === true) finish();
      take(answer);
    }
  };
  running.addEventListener("message", listen);
  // A worker that cannot load or run: the body is shown as it is.
  running.addEventListener("error", fail, { once: true });
  const unlisten = parts.listen(feed);
  feed();
  return {
    ask: (query) =>
      new Promise((resolve) => {
        const seq = ++lastSeq;
        waiting.set(seq, resolve);
        running.postMessage({ id, seq, ...query } as Query);
      }),
    stop: () => {
      const stopped = !done;
      finish();
      running.removeEventListener("message", listen);
      running.removeEventListener("error", fail);
      // A body still being formatted is dropped with its worker: the next body starts at once.
      if (stopped && worker === running) {
        running.terminate();
        worker = undefined;
      }
    },
  };
}
