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

# require_node: Node.js 20.19 or newer (22.12+, 24 LTS) and npm must be on PATH.
require_node() {
  command -v node >/dev/null 2>&1 || die "Node.js is not installed. Install Node.js 20.19 or newer (it comes with npm)."
  command -v npm >/dev/null 2>&1 || die "npm is not installed. Install Node.js 20.19 or newer (it comes with npm)."
  local version major minor
  version="$(node -p 'process.versions.node')"
  major="${version%%.*}"
  minor="${version#*.}"
  minor="${minor%%.*}"
  if ((major < 20 || (major == 20 && minor < 19) || major == 21 || (major == 22 && minor < 12) || major == 23)); then
    die "Node.js $version is not supported: this project needs Node.js 20.19+, 22.12+ or 24 LTS and newer."
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
    # Exactly the versions of package-lock.json, from a clean node_modules.
    (cd "$REPO_ROOT" && npm ci --no-audit --no-fund)
  else
    info "Dependencies are up to date (node_modules is newer than package-lock.json)."
  fi
}

# build_web: build the React client into apps/web/dist (the server serves it at /).
build_web() {
  (cd "$REPO_ROOT" && npm run build -w apps/web)
}

# sources_changed STAMP PATH...: true when STAMP is missing or a file under a PATH is newer than it.
sources_changed() {
  local stamp=$1
  shift
  [[ -f "$stamp" ]] || return 0
  [[ -n "$(cd "$REPO_ROOT" && find "$@" -newer "$stamp" -type f -print -quit 2>/dev/null)" ]]
}

# build_if_changed NAME STAMP COMMAND PATH...: runs COMMAND when a file under a PATH changed since the
# last successful build (STAMP). The stamp is taken before the build, so an edit made during it counts;
# it waits outside the output folder, which a build may empty (vite's emptyOutDir did, on every web build).
build_if_changed() {
  local name=$1 stamp=$2 command=$3 next
  shift 3
  if ! sources_changed "$stamp" "$@"; then
    info "$name is up to date."
    return 0
  fi
  banner "Building $name"
  next="$(mktemp "$REPO_ROOT/.build.stamp.XXXXXX")"
  (cd "$REPO_ROOT" && bash -c "$command") || {
    rm -f "$next"
    return 1
  }
  mkdir -p "$(dirname "$stamp")"
  mv "$next" "$stamp"
}

# build_changed: compiles what changed since the last build: the web client (apps/web/dist) and the
# server with the contract (JavaScript in apps/server/dist and packages/contract/dist). Two starts at
# once take turns (a lock), so one never reads a half-written build of the other.
build_changed() {
  exec 9>"$REPO_ROOT/.build.lock"
  flock 9
  build_if_changed "the web client" "$REPO_ROOT/apps/web/dist/.built" "npm run build -w apps/web" \
    apps/web/src apps/web/public apps/web/index.html apps/web/vite.config.ts apps/web/scripts \
    packages/contract/src package-lock.json
  build_if_changed "the server" "$REPO_ROOT/apps/server/dist/.built" "npm run build -w apps/server" \
    apps/server/src apps/server/tsconfig.json apps/server/tsconfig.build.json \
    packages/contract/src packages/contract/package.json tsconfig.base.json package-lock.json
  flock -u 9
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
