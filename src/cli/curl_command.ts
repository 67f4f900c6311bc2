/**
 * `dial curl …`: a curl command pasted after `dial` runs as dial (declaration; the
 * implementation, `curl_run.ts`, is loaded when it runs).
 * @module
 */
import { command } from "./declare.ts";

/** `dial curl [curl arguments…]`. */
export const curlCommand = command({
  name: "curl",
  summary: "Send a request written as a curl command (paste it after dial)",
  usage: "<url> [curl flags]",
  passthrough: true,
  args: [{ name: "words", variadic: true, help: "the curl command's arguments" }],
  epilog: `
Every word after "dial curl" is read as curl reads it, and the request is sent by dial
(printed as dial prints it). An unsupported curl flag is a usage error naming it.

Understood: -X -H -d --data --data-ascii --data-raw --data-binary --data-urlencode --json
-F --form-string -G -u --oauth2-bearer -b -c -A -e -k -L --max-redirs --compressed -m
--connect-timeout -x --noproxy --cacert --cert --key -T -I -i -v -f -o --url (-s -S -g
and progress flags are accepted and have no effect).

Examples:
  dial curl https://api.example.com/users -H 'Accept: application/json'
  dial curl -X POST https://api.example.com/users -d name=ann -u ann:s3cret`,
  run: async ({ args }, context) => {
    const { runCurl } = await import("./curl_run.ts");
    return await runCurl(args.words, context);
  },
});
