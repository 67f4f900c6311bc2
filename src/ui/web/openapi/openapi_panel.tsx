/**
 * The HTTP tab's OpenAPI side: for a request of a workspace file whose file (`# @openapi`) or
 * environment (`openapi`) names a description, the operation it matches, its summary and its
 * parameter, request and response schemas beside the request (`POST /api/openapi/operation`);
 * after a Send, the violations the server found, each value of the response body marked in the
 * viewer (`openapi_marks.ts`) and reached by its pointer.
 * @module
 */
import { useSignal } from "@preact/signals";
import { useEffect } from "preact/hooks";
import type { JSX } from "preact";
import { postJson, toApiError } from "../api.ts";
import { httpSource, requestExtras } from "../request_extras.ts";
import { variablesVersion } from "../variable_marks.ts";
import type {
  OpenapiEvent,
  OpenapiOperationAnswer,
  OpenapiOperationJson,
  SchemaJson,
} from "../../openapi_protocol.ts";
import { showPointer } from "./openapi_marks.ts";

/**
 * @param props the tab's method and URL as typed
 * @returns the operation's summary and schemas, or nothing when no description applies
 */
export function OpenapiPanel(props: { method: string; url: string }): JSX.Element | null {
  const answer = useSignal<OpenapiOperationAnswer | undefined>(undefined);
  const failure = useSignal<string | undefined>(undefined);
  const source = httpSource.value;
  // Picking an environment changes the variables' version: its `openapi` entry may apply.
  void variablesVersion.value;
  const environment = requestExtras("http").environment;
  const { method, url } = props;
  useEffect(() => {
    // The last answer stays in view while the next is asked (no flicker as the URL is typed).
    if (!source) {
      answer.value = undefined;
      failure.value = undefined;
      return;
    }
    const call = new AbortController();
    const body: OpenapiOperationJson = {
      path: source.path,
      index: source.index,
      ...(source.name !== undefined ? { name: source.name } : {}),
      ...(environment ? { environment } : {}),
      method,
      url,
    };
    postJson("/api/openapi/operation", body, call.signal).then((found) => {
      if (call.signal.aborted) return;
      answer.value = found as OpenapiOperationAnswer;
      failure.value = undefined;
    }, (error) => {
      if (call.signal.aborted) return;
      answer.value = undefined;
      failure.value = toApiError(error).message;
    });
    return () => call.abort();
  }, [source?.path, source?.index, source?.name, environment, method, url]);
  if (failure.value) {
    return (
      <section class="openapi-panel" aria-label="OpenAPI">
        <p role="alert" class="error">OpenAPI: {failure.value}</p>
      </section>
    );
  }
  const found = answer.value;
  if (!found?.described) return null;
  const op = found.operation;
  return (
    <details class="openapi-panel" open aria-label="OpenAPI">
      <summary>
        OpenAPI: {op
          ? `${op.name}${op.summary ? ` — ${op.summary}` : ""}`
          : `no operation matches ${props.method} ${props.url}`}
      </summary>
      <p class="note">
        From the description named by {found.source} (OpenAPI {found.version})
      </p>
      {op?.description && <p class="openapi-description">{op.description}</p>}
      {op && op.parameters.length > 0 && <Schemas title="Parameters" schemas={op.parameters} />}
      {op && op.requestBody.length > 0 && <Schemas title="Request body" schemas={op.requestBody} />}
      {op && op.responses.length > 0 && (
        <section class="openapi-responses">
          <h3>Responses</h3>
          {op.responses.map((r) => (
            <details key={r.status}>
              <summary>{r.status}{r.description ? ` ${r.description}` : ""}</summary>
              {r.content.map((c) => <SchemaBlock key={c.label} schema={c} />)}
            </details>
          ))}
        </section>
      )}
    </details>
  );
}

function Schemas(props: { title: string; schemas: SchemaJson[] }): JSX.Element {
  return (
    <section>
      <h3>{props.title}</h3>
      {props.schemas.map((s) => (
        <details key={s.label}>
          <summary>{s.label}</summary>
          <SchemaBlock schema={{ ...s, label: "" }} />
        </details>
      ))}
    </section>
  );
}

function SchemaBlock(props: { schema: SchemaJson }): JSX.Element {
  return (
    <>
      {props.schema.label && <p class="note">{props.schema.label}</p>}
      <pre class="openapi-schema">{props.schema.schema}</pre>
    </>
  );
}

/**
 * @param props a Send's violations, as the server found them
 * @returns whether the exchange kept the description, and a way to each marked value
 */
export function OpenapiViolations(props: { event: OpenapiEvent }): JSX.Element {
  const { violations, source } = props.event;
  const values = violations.filter((v) => v.body === "response" && v.pointer !== undefined);
  return (
    <section class="openapi-violations" aria-label="OpenAPI check">
      {violations.length === 0
        ? <p class="passed">OpenAPI: the exchange keeps the description ({source})</p>
        : (
          <p class="failed">
            OpenAPI: {violations.length} violation{violations.length > 1 ? "s" : ""}{" "}
            of the description ({source}){values.length > 0 ? "; marked in the body:" : ""}
            {values.map((v, i) => (
              <button
                type="button"
                key={i}
                class="link"
                title={v.message}
                onClick={() => showPointer(v.pointer!)}
              >
                {v.pointer || "(the whole body)"}
              </button>
            ))}
          </p>
        )}
    </section>
  );
}
