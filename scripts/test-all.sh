#!/usr/bin/env bash
# `npm test`: install what the tests need (npm dependencies, Debian's chromium), then run every check
# in order, stopping at the first failure: lint, typecheck, contract tests, server tests, web tests, web build,
# server build (JavaScript), end-to-end tests in Chromium against the compiled server.
#
# CHROMIUM_PATH may point at a Chromium other than /usr/bin/chromium.
# TEST_DATABASE_URL, when set, runs the server tests on that PostgreSQL database instead of PGlite.
set -euo pipefail

# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
cd "$REPO_ROOT"

started_at=$SECONDS

ensure_deps
ensure_chromium

steps=(
  "Lint|npm run lint"
  "Typecheck|npm run typecheck"
  "Contract tests|npm run test:contract"
  "Server tests|npm run test:server"
  "Web tests|npm run test:web"
  "Web build|npm run build -w apps/web"
  "Server build|npm run build -w apps/server"
  "End-to-end tests|npm run test:e2e"
)
total=${#steps[@]}
index=0
for step in "${steps[@]}"; do
  index=$((index + 1))
  name="${step%%|*}"
  command="${step#*|}"
  banner "[$index/$total] $name: $command"
  step_started_at=$SECONDS
  status=0
  bash -c "$command" || status=$?
  elapsed=$((SECONDS - step_started_at))
  if ((status != 0)); then
    fail "[$index/$total] $name FAILED (exit $status, ${elapsed}s): $command"
    fail "npm test: FAILED at step $index/$total ($name) after $((SECONDS - started_at))s."
    exit "$status"
  fi
  ok "[$index/$total] $name passed (${elapsed}s)"
done

names=$(printf '%s, ' "${steps[@]%%|*}")
ok "npm test: all $total steps passed (${names%, }) in $((SECONDS - started_at))s."
