# dial in a container: the self-contained build (scripts/build_cli.ts) installed as
# `deno task install` installs it, on Debian slim with only the deno binary beside it.
# Nothing is downloaded when dial runs: the npm packages and the UI bundle are in /opt/dial.
#
#   docker build -t dial .
#   docker run --rm -e API_TOKEN dial GET https://api.example.com/me -B @env:API_TOKEN
ARG DENO_VERSION=2.9.6

FROM denoland/deno:debian-${DENO_VERSION} AS build
WORKDIR /src
COPY . .
# dist/cli/: dial.js, its chunks (npm packages bundled) and web/dist/ (the UI bundle).
RUN deno task build

FROM denoland/deno:bin-${DENO_VERSION} AS deno

FROM debian:bookworm-slim
COPY --from=deno /deno /usr/local/bin/deno
COPY --from=build /src/dist/cli /opt/dial
RUN deno install -g -A -f --no-config --v8-flags=--liftoff-only,--invocation-count-for-maglev=50,--minimum-invocations-after-ic-update=20 --root /usr/local -n dial /opt/dial/dial.js \
  && useradd --create-home --uid 10001 dial
USER dial
WORKDIR /home/dial
ENTRYPOINT ["dial"]
CMD ["--help"]
