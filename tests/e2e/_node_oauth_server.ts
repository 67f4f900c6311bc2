/**
 * @node-oauth/oauth2-server (the Express/Koa OAuth 2.0 server library) behind node:http on
 * 127.0.0.1 port 0, issuing client_credentials tokens. It reads client_secret_basic without
 * form-decoding, so it sees exactly how a client encoded its id and secret.
 * @module
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import OAuth2Server from "@node-oauth/oauth2-server";

/** A running server. */
export interface NodeOAuthServer {
  /** `<origin>/token` */
  tokenUrl: string;
  /** Each token request: its Authorization header and form body. */
  requests: Array<{ authorization?: string; body: URLSearchParams }>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * @param client the one registered client
 * @returns the running server
 */
export async function startNodeOAuthServer(
  client: { id: string; secret: string },
): Promise<NodeOAuthServer> {
  const oauth = new OAuth2Server({
    model: {
      getClient: (id, secret) =>
        Promise.resolve(
          id === client.id && secret === client.secret
            ? { id, grants: ["client_credentials"] }
            : null,
        ),
      getUserFromClient: () => Promise.resolve({ id: "service" }),
      saveToken: (token, c, user) => Promise.resolve({ ...token, client: c, user }),
      getAccessToken: () => Promise.resolve(null),
    },
  });
  const requests: NodeOAuthServer["requests"] = [];
  const http = createServer(async (req, res) => {
    let text = "";
    for await (const chunk of req) text += chunk;
    const body = new URLSearchParams(text);
    const authorization = req.headers.authorization;
    requests.push({ ...(authorization ? { authorization } : {}), body });
    const request = new OAuth2Server.Request({
      method: req.method,
      query: {},
      headers: req.headers,
      body: Object.fromEntries(body),
    });
    const response = new OAuth2Server.Response({ headers: {} });
    await oauth.token(request, response).catch(() => {});
    res.writeHead(response.status ?? 500, {
      ...response.headers,
      "content-type": "application/json",
    });
    res.end(JSON.stringify(response.body));
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const { port } = http.address() as AddressInfo;
  return {
    tokenUrl: `http://127.0.0.1:${port}/token`,
    requests,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve, reject) => {
        http.closeAllConnections();
        http.close((error) => error ? reject(error) : resolve());
      }),
  };
}
