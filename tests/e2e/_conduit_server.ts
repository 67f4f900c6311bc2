/**
 * A small in-memory Conduit (RealWorld) API on 127.0.0.1, enough for the RealWorld project's
 * Postman collection (fixtures/conduit): users, articles, favorites, comments, profiles, tags.
 * Each instance starts empty and records every request as it arrives, so two clients (Newman,
 * dial) can each run the collection against one of their own and be compared.
 * @module
 */

/** One request as received. */
export interface ConduitRequest {
  method: string;
  target: string;
  headers: Array<[string, string]>;
  body: string;
}

/** A running server. */
export interface ConduitServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/api` */
  api: string;
  requests: ConduitRequest[];
}

interface User {
  email: string;
  username: string;
  password: string;
  bio: string | null;
  image: string | null;
}

interface Article {
  slug: string;
  title: string;
  description: string;
  body: string;
  tagList: string[];
  createdAt: string;
  updatedAt: string;
  author: string;
}

/** @returns a fresh server (dispose it to stop it) */
export function conduitServer(): ConduitServer {
  const now = "2026-01-01T00:00:00.000Z";
  const users = new Map<string, User>();
  const articles = new Map<string, Article>();
  const comments = new Map<string, Array<Record<string, unknown>>>();
  const favorites = new Set<string>();
  let nextComment = 1;
  const requests: ConduitRequest[] = [];
  const profile = (u: User, following = false) => ({
    username: u.username,
    bio: u.bio,
    image: u.image,
    following,
  });
  const userOut = (u: User) => ({
    user: {
      email: u.email,
      username: u.username,
      bio: u.bio,
      image: u.image,
      token: `tok-${u.username}`,
    },
  });
  const articleOut = (a: Article, me?: User) => ({
    ...a,
    favorited: me ? favorites.has(`${me.username}/${a.slug}`) : false,
    favoritesCount: [...favorites].filter((f) => f.endsWith(`/${a.slug}`)).length,
    author: profile(users.get(a.author)!),
  });
  const json = (value: unknown, status = 200) => Response.json(value, { status });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const url = new URL(req.url);
    const text = await req.text();
    requests.push({
      method: req.method,
      target: url.pathname + url.search,
      headers: [...req.headers],
      body: text,
    });
    // deno-lint-ignore no-explicit-any
    const body: any = text ? JSON.parse(text) : {};
    const path = url.pathname.replace(/^\/api/, "");
    const token = /^Token tok-(.+)$/.exec(req.headers.get("authorization") ?? "");
    const me = token ? users.get(token[1]!) : undefined;
    let m: RegExpExecArray | null;
    if (req.method === "POST" && path === "/users") {
      const u: User = { ...body.user, bio: null, image: null };
      users.set(u.username, u);
      return json(userOut(u));
    }
    if (req.method === "POST" && path === "/users/login") {
      const u = [...users.values()].find((u) => u.email === body.user?.email);
      return u ? json(userOut(u)) : json({ errors: { "email or password": ["is invalid"] } }, 403);
    }
    if (path === "/user") {
      if (!me) return json({ errors: { token: ["is missing"] } }, 401);
      if (req.method === "PUT") Object.assign(me, body.user);
      return json(userOut(me));
    }
    if (req.method === "GET" && (path === "/articles" || path === "/articles/feed")) {
      let list = [...articles.values()];
      const q = url.searchParams;
      if (q.get("author")) list = list.filter((a) => a.author === q.get("author"));
      if (q.get("favorited")) {
        list = list.filter((a) => favorites.has(`${q.get("favorited")}/${a.slug}`));
      }
      if (q.get("tag")) list = list.filter((a) => a.tagList.includes(q.get("tag")!));
      return json({ articles: list.map((a) => articleOut(a, me)), articlesCount: list.length });
    }
    if (req.method === "POST" && path === "/articles") {
      const a: Article = {
        ...body.article,
        slug: `${String(body.article.title).toLowerCase().replace(/\W+/g, "-")}-1`,
        tagList: body.article.tagList ?? [],
        createdAt: now,
        updatedAt: now,
        author: me?.username ?? "",
      };
      articles.set(a.slug, a);
      return json({ article: articleOut(a, me) });
    }
    if ((m = /^\/articles\/([^/]+)\/favorite$/.exec(path))) {
      const key = `${me?.username}/${m[1]}`;
      if (req.method === "POST") favorites.add(key);
      else favorites.delete(key);
      return json({ article: articleOut(articles.get(m[1]!)!, me) });
    }
    if ((m = /^\/articles\/([^/]+)\/comments(?:\/\d+)?$/.exec(path))) {
      const list = comments.get(m[1]!) ?? [];
      comments.set(m[1]!, list);
      if (req.method === "POST") {
        const c = {
          id: nextComment++,
          body: body.comment.body,
          createdAt: now,
          updatedAt: now,
          author: profile(me!),
        };
        list.push(c);
        return json({ comment: c });
      }
      if (req.method === "DELETE") return json({});
      return json({ comments: list });
    }
    if ((m = /^\/articles\/([^/]+)$/.exec(path))) {
      const a = articles.get(m[1]!);
      if (!a) return json({ errors: { article: ["not found"] } }, 404);
      if (req.method === "PUT") Object.assign(a, body.article);
      if (req.method === "DELETE") {
        articles.delete(m[1]!);
        return json({});
      }
      return json({ article: articleOut(a, me) });
    }
    if ((m = /^\/profiles\/([^/]+)(\/follow)?$/.exec(path))) {
      const u = users.get(m[1]!);
      if (!u) return json({ errors: { profile: ["not found"] } }, 404);
      return json({ profile: profile(u, req.method === "POST") });
    }
    if (path === "/tags") return json({ tags: ["dragons", "training"] });
    return json({ errors: { path: ["unknown"] } }, 404);
  });
  return {
    api: `http://127.0.0.1:${server.addr.port}/api`,
    requests,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}
