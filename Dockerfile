# syntax=docker/dockerfile:1
# 안심신고 — the API with the built web client, for PostgreSQL + S3-compatible storage (see docs/operations.md).
# Node 24 is an LTS line the project supports (engines >=20.19; tested on 20, meant to work on 22 and 24).
ARG NODE_IMAGE=node:24-bookworm-slim

# ---- build: every dependency, then the web client ----
FROM ${NODE_IMAGE} AS build
WORKDIR /src
# Manifests first, so the install layer is reused until a package.json or the lock file changes.
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# `npm install` honours the lock file; `npm ci` refuses it (see .ci/run: other platforms' optional binaries).
RUN npm install --no-audit --no-fund
COPY . .
RUN npm run build

# ---- production dependencies of the API and the shared package only (no React, Vite or test tools) ----
FROM ${NODE_IMAGE} AS runtime-deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/shared/package.json packages/shared/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm install --omit=dev --workspace @ansim/api --workspace @ansim/shared --no-audit --no-fund \
  && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/app/data
WORKDIR /app
# Code and dependencies belong to root and are read-only for the process, which runs as `node` (uid 1000).
COPY --from=runtime-deps /app/node_modules ./node_modules
COPY package.json ./
COPY packages/shared/package.json packages/shared/
COPY packages/shared/src packages/shared/src
COPY apps/api/package.json apps/api/
COPY apps/api/src apps/api/src
COPY --from=build /src/apps/web/dist apps/web/dist
# DATA_DIR holds only uploads in progress when FILE_STORE=s3 and DATABASE_URL are set; nothing durable.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# tsx (a dependency of the API) compiles the TypeScript sources as they load; no separate build of the API.
CMD ["node", "--import", "tsx", "apps/api/src/server.ts"]
