# syntax=docker/dockerfile:1
# The careers service's image (docs/operations.md, "Containers").
#
# The Node that runs the service is the one package-lock.json pins: the npm package `node`, a
# production dependency, puts Node 24 in node_modules/.bin. The build stage's own Node only runs
# npm, so the runtime stage is plain Debian: one Node in the image, the version the tests ran on.
#   docker build -t careers-service .
#   docker run -p 3000:3000 -v careers-data:/data careers-service

ARG DEBIAN_RELEASE=trixie

# ---- production dependencies (npm ci --omit=dev) ----
FROM node:24-${DEBIAN_RELEASE}-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# The SDK is an npm workspace: npm ci checks its manifest against the lockfile.
COPY packages/sdk/package.json packages/sdk/
RUN npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/@careers \
 && node_modules/.bin/node --version

# ---- runtime ----
FROM debian:${DEBIAN_RELEASE}-slim AS runtime
# prlimit (util-linux) caps each PDF child's address space: without it no CV is checked.
# hadolint ignore=DL3008
RUN apt-get update \
 && apt-get install -y --no-install-recommends util-linux \
 && rm -rf /var/lib/apt/lists/* \
 && prlimit --version \
 && groupadd --system --gid 10001 careers \
 && useradd --system --uid 10001 --gid careers --home-dir /nonexistent --shell /usr/sbin/nologin careers \
 && mkdir /data \
 && chown careers:careers /data
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json ./
COPY migrations ./migrations
COPY src ./src
# HOST: every interface of the container (the service's own default is 127.0.0.1).
ENV HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    PATH=/app/node_modules/.bin:$PATH
# The code is root's and read-only to the service; it writes only DATA_DIR and the OS temp dir.
USER careers:careers
EXPOSE 3000
# SIGTERM: stop accepting, finish in-flight requests and tasks within SHUTDOWN_GRACE_MS, exit 0.
# Give the orchestrator's stop timeout more than SHUTDOWN_GRACE_MS (default 10 s).
STOPSIGNAL SIGTERM
# Liveness: /healthz answers while the process runs. Readiness (/readyz) is for load balancers.
# Every ROLE serves both on PORT; compose.yaml checks a worker's /readyz (its task loop runs).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "src/main.ts"]
