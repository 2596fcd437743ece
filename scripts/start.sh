#!/usr/bin/env bash
# `npm start`: install dependencies when needed, build what changed since the last build (client,
# contract and server, to JavaScript), then run the compiled server in the foreground. The server
# prints its address and, on first start, the administrator's sign-in.
#
# Environment: every variable of the server (PORT, HOST, DATA_DIR, DATABASE_URL, PUBLIC_URL, SMTP_URL,
# MAIL_FROM, ADMIN_EMAIL, ADMIN_PASSWORD, TOKEN_TTL_SECONDS) passes through. The server resolves a
# relative DATA_DIR (default ./data) against the folder `npm start` was run from (npm's INIT_CWD).
set -euo pipefail

# A relative DATA_DIR means the folder this command was started from, as under npm.
export INIT_CWD="${INIT_CWD:-$PWD}"

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

ensure_deps

build_changed

banner "Starting the server (Ctrl+C to stop)"
# What `npm start -w apps/server` runs, without npm in between: npm does not pass SIGTERM on to the
# server, and the server's graceful shutdown needs it. Compiled JavaScript; the contract's `compiled`
# export condition points its imports at packages/contract/dist.
cd "$REPO_ROOT/apps/server"
exec node --conditions=compiled dist/main.js
