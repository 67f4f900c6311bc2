import { equal } from "node:assert/strict";
import { uiHint, uiMessage } from "../../src/ui/api/ui_words.ts";

Deno.test("ui words: CLI messages and hints name the UI's controls, never flags", () => {
  equal(
    uiMessage("check the client id and secret in --oauth2, and --oauth2-client-auth"),
    "check the client id and secret in the auth panel, and Client authentication",
  );
  equal(uiMessage("Missing client id in --oauth2"), "Missing client id in the auth panel");
  equal(
    uiHint("open the printed URL in a browser, or raise --oauth2-timeout"),
    "press Log in again, or raise Login timeout in the auth panel",
  );
  equal(
    uiHint("check the credentials (-u, -B, -K, -H, --oauth2)"),
    "check the auth panel and the headers you added",
  );
  equal(
    uiHint("raise --max-redirects, or drop -L to see the redirect"),
    "untick Follow redirects to see the redirect",
  );
  equal(
    uiMessage(
      "Cannot reach 127.0.0.1:9: connection refused (error sending request for url (http://127.0.0.1:9/): client error (Connect): tcp connect error: Connection refused (os error 111))",
    ),
    "Cannot reach 127.0.0.1:9: connection refused",
  );
});
