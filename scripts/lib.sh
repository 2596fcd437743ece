#!/usr/bin/env bash
# Shared helpers for scripts/start.sh, scripts/test-all.sh and .ci/run. Source it; do not run it.
# Everything here works on a fresh machine that has only Node.js 20.19+ and npm.

# The repository root (the folder above scripts/).
REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export REPO_ROOT

# Colour only on a terminal.
if [[ -t 1 ]]; then
  _BOLD=$'\e[1m'
  _RED=$'\e[31m'
  _GREEN=$'\e[32m'
  _RESET=$'\e[0m'
else
  _BOLD=''
  _RED=''
  _GREEN=''
  _RESET=''
fi

# info MESSAGE: a plain progress line.
info() {
  printf '%s\n' "$*"
}

# banner TITLE: a line that stands out in a long log.
banner() {
  printf '\n%s==> %s%s\n' "$_BOLD" "$*" "$_RESET"
}

# ok MESSAGE / fail MESSAGE: a result line, green or red.
ok() {
  printf '%s%s%s\n' "$_GREEN" "$*" "$_RESET"
}
fail() {
  printf '%s%s%s\n' "$_RED" "$*" "$_RESET" >&2
}

# die MESSAGE: print an error and exit non-zero.
die() {
  fail "error: $*"
  exit 1
}

# require_node: Node.js 20.19 or newer and npm must be on PATH.
require_node() {
  command -v node >/dev/null 2>&1 || die "Node.js is not installed. Install Node.js 20.19 or newer (it comes with npm)."
  command -v npm >/dev/null 2>&1 || die "npm is not installed. Install Node.js 20.19 or newer (it comes with npm)."
  local version major minor
  version="$(node -p 'process.versions.node')"
  major="${version%%.*}"
  minor="${version#*.}"
  minor="${minor%%.*}"
  if ((major < 20 || (major == 20 && minor < 19))); then
    die "Node.js $version is too old: this project needs Node.js 20.19 or newer."
  fi
}

# deps_stale: true when node_modules is missing or older than package-lock.json.
deps_stale() {
  [[ ! -d "$REPO_ROOT/node_modules" ]] && return 0
  [[ ! -f "$REPO_ROOT/node_modules/.package-lock.json" ]] && return 0
  [[ -f "$REPO_ROOT/package-lock.json" && "$REPO_ROOT/package-lock.json" -nt "$REPO_ROOT/node_modules/.package-lock.json" ]] && return 0
  return 1
}

# ensure_deps: install the npm workspaces' dependencies when they are missing or out of date.
ensure_deps() {
  require_node
  if deps_stale; then
    banner "Installing dependencies"
    # `npm install`, not `npm ci`: it installs the versions package-lock.json pins just the same, but
    # tolerates optional per-platform packages (Biome's macOS and Windows binaries) that the registry
    # this machine reaches does not serve, which `npm ci` rejects as a lock file out of sync.
    (cd "$REPO_ROOT" && npm install --no-audit --no-fund)
  else
    info "Dependencies are up to date (node_modules is newer than package-lock.json)."
  fi
}

# build_web: build the React client into apps/web/dist (the server serves it at /).
build_web() {
  (cd "$REPO_ROOT" && npm run build -w apps/web)
}

# ensure_chromium: make sure a Chromium for the end-to-end tests exists and export CHROMIUM_PATH.
# CHROMIUM_PATH may point at another Chromium; otherwise Debian's /usr/bin/chromium is used and,
# when it is missing and we are root, installed with apt.
ensure_chromium() {
  if [[ -n "${CHROMIUM_PATH:-}" ]]; then
    [[ -x "$CHROMIUM_PATH" ]] || die "CHROMIUM_PATH is set to '$CHROMIUM_PATH', which is not an executable file."
    info "Using Chromium at $CHROMIUM_PATH (CHROMIUM_PATH)."
    export CHROMIUM_PATH
    return 0
  fi
  local debian_chromium=/usr/bin/chromium
  if [[ ! -x "$debian_chromium" ]]; then
    if [[ "$(id -u)" -eq 0 ]] && command -v apt-get >/dev/null 2>&1; then
      banner "Installing Debian's chromium for the end-to-end tests (apt-get)"
      apt-get update
      DEBIAN_FRONTEND=noninteractive apt-get install -y chromium </dev/null
    else
      fail "error: the end-to-end tests need Chromium and $debian_chromium was not found."
      fail "  On Debian, install it with:  sudo apt-get install chromium"
      fail "  Or set CHROMIUM_PATH to another Chromium executable, e.g.  CHROMIUM_PATH=/path/to/chromium npm test"
      exit 1
    fi
  fi
  [[ -x "$debian_chromium" ]] || die "Installing chromium did not produce $debian_chromium."
  export CHROMIUM_PATH="$debian_chromium"
  info "Using Chromium at $CHROMIUM_PATH."
}
