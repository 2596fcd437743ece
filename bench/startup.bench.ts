/**
 * `npm run bench -- startup` (docs/deployment.md §Start-up time): on the embedded database (PGlite), the
 * time from spawning the server as `npm start` runs it (`node --conditions=compiled dist/main.js` in
 * apps/server, built first) to `/readyz` answering 200: a first start with a new DATA_DIR (creates the
 * database, migrates, loads the reference data, hashes the generated Administrator password) under 10 s
 * at the median, and a restart on that DATA_DIR under 3 s. Reference: a Node process that listens with
 * an empty HTTP server, ready in the same way (the floor any start pays). Each start is stopped with SIGTERM, which must
 * exit 0. The server's own "ready" log line gives where the time went (modules loaded, database opened,
 * prepared, app built, listening), reported as medians in the details.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BenchRow, type Stats, type Suite, type SuiteResult, stats } from './harness.ts';

const GOALS = { firstStartSeconds: 10, restartSeconds: 3 } as const;
const FIRST_STARTS = 3;
const RESTARTS = 5;
const SERVER_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'apps', 'server');
/** Polling period of `/readyz` while waiting: the figures are this precise. */
const POLL_MS = 10;
const START_TIMEOUT_MS = 60_000;

/** The steps of the server's start-up, in ms since its process started (its "ready" log line). */
type StartupSteps = Record<string, number>;

/**
 * One timed start: spawn to `/readyz` 200, the CPU time the process used until then (what the start
 * costs whatever else loads the shared machine), SIGTERM to exit, and the server's own step times.
 */
type TimedStart = { readyMs: number; cpuMs: number; stopMs: number; steps: StartupSteps | undefined };

let clockTicks: number | undefined;

/** CPU milliseconds (user + system, all threads) process `pid` has used so far, from /proc; NaN when unreadable. */
async function cpuMsOf(pid: number | undefined): Promise<number> {
  try {
    clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // After the command name (in parentheses), utime and stime are the 12th and 13th fields.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return Number.NaN;
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Spawns `args` in apps/server with only PATH and `env` (never the caller's DATABASE_URL), waits for
 * `GET /readyz` to answer 200, then stops it with SIGTERM and waits for exit code 0.
 * @throws when it exits early, does not get ready in {@link START_TIMEOUT_MS}, or exits non-zero.
 */
async function timeStart(args: string[], env: Record<string, string>): Promise<TimedStart> {
  const port = await freePort();
  const started = performance.now();
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: SERVER_DIR,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  try {
    let readyMs: number | undefined;
    let cpuMs = Number.NaN;
    while (readyMs === undefined) {
      if (child.exitCode !== null) throw new Error(`exited (${child.exitCode}) before ready:\n${output}`);
      if (performance.now() - started > START_TIMEOUT_MS)
        throw new Error(`not ready in ${START_TIMEOUT_MS} ms:\n${output}`);
      const answer = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
      if (answer?.status === 200) {
        readyMs = performance.now() - started;
        cpuMs = await cpuMsOf(child.pid);
      } else await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const stopping = performance.now();
    child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`exit code ${code} after SIGTERM:\n${output}`);
    return { readyMs, cpuMs, stopMs: performance.now() - stopping, steps: readSteps(output) };
  } finally {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
}

/** The `startupMs` object of the server's JSON "ready" log line, when there is one. */
function readSteps(output: string): StartupSteps | undefined {
  for (const line of output.split('\n')) {
    if (!line.includes('"startupMs"')) continue;
    try {
      return (JSON.parse(line) as { startupMs: StartupSteps }).startupMs;
    } catch {
      // not a JSON line
    }
  }
  return undefined;
}

/** Median of each step over the starts that reported their steps. */
function medianSteps(starts: TimedStart[]): Record<string, number> {
  const names = [...new Set(starts.flatMap((start) => Object.keys(start.steps ?? {})))];
  return Object.fromEntries(
    names.map((name) => [
      name,
      stats(starts.flatMap((start) => (start.steps?.[name] === undefined ? [] : [start.steps[name]]))).median,
    ]),
  );
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

/** Three first starts on new data directories, then five restarts on the last one, and the reference. */
async function runStartupBench(): Promise<SuiteResult> {
  // The compiled server, as `npm start` and the deploy files run it (built here: what changed since the last build).
  execFileSync('npm', ['run', 'build', '-w', 'apps/server'], {
    cwd: path.join(SERVER_DIR, '..', '..'),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const serverArgs = ['--conditions=compiled', 'dist/main.js'];
  // `info` for the "ready" line with the step times; nothing else is logged at start.
  const baseEnv = { LOG_LEVEL: 'info', NODE_ENV: 'production' };
  const root = await mkdtemp(path.join(os.tmpdir(), 'back-office-startup-'));
  try {
    // The reference first: it also warms the file cache for what follows.
    const referenceScript =
      "process.on('SIGTERM', () => process.exit(0)); require('node:http').createServer((q, s) => s.end('ok')).listen(Number(process.env.PORT), process.env.HOST)";
    const reference: TimedStart[] = [];
    for (let run = 0; run < RESTARTS + 1; run += 1) {
      const timed = await timeStart(['-e', referenceScript], {});
      if (run > 0) reference.push(timed);
    }

    const firstStarts: TimedStart[] = [];
    let dataDir = '';
    for (let run = 0; run < FIRST_STARTS; run += 1) {
      dataDir = path.join(root, `data-${run}`);
      const timed = await timeStart(serverArgs, { ...baseEnv, DATA_DIR: dataDir });
      firstStarts.push(timed);
      process.stdout.write(
        `  first start ${run + 1}/${FIRST_STARTS}: ready in ${seconds(timed.readyMs)}, CPU ${seconds(timed.cpuMs)}\n`,
      );
    }
    const restarts: TimedStart[] = [];
    for (let run = 0; run < RESTARTS; run += 1) {
      const timed = await timeStart(serverArgs, { ...baseEnv, DATA_DIR: dataDir });
      restarts.push(timed);
      process.stdout.write(
        `  restart ${run + 1}/${RESTARTS}: ready in ${seconds(timed.readyMs)}, CPU ${seconds(timed.cpuMs)}\n`,
      );
    }

    const first: Stats = stats(firstStarts.map((start) => start.readyMs));
    const restart: Stats = stats(restarts.map((start) => start.readyMs));
    const floor: Stats = stats(reference.map((start) => start.readyMs));
    const cpu = (starts: TimedStart[]) => stats(starts.map((start) => start.cpuMs));
    const [firstCpu, restartCpu, floorCpu] = [cpu(firstStarts), cpu(restarts), cpu(reference)];
    const rows: BenchRow[] = [
      {
        figure: `first start, new DATA_DIR (PGlite), spawn to /readyz 200, median of ${FIRST_STARTS}`,
        goal: `< ${GOALS.firstStartSeconds} s`,
        measured: `${seconds(first.median)} (max ${seconds(first.max)}; CPU ${seconds(firstCpu.median)}; empty server ${seconds(floor.median)})`,
        passed: first.median < GOALS.firstStartSeconds * 1000,
        value: Math.round(first.median) / 1000,
        unit: 's',
        baseline: { value: Math.round(floor.median) / 1000, label: 'empty server' },
      },
      {
        figure: `restart on that DATA_DIR, spawn to /readyz 200, median of ${RESTARTS}`,
        goal: `< ${GOALS.restartSeconds} s`,
        measured: `${seconds(restart.median)} (max ${seconds(restart.max)}; CPU ${seconds(restartCpu.median)}; empty server ${seconds(floor.median)})`,
        passed: restart.median < GOALS.restartSeconds * 1000,
        value: Math.round(restart.median) / 1000,
        unit: 's',
        baseline: { value: Math.round(floor.median) / 1000, label: 'empty server' },
      },
    ];
    return {
      rows,
      details: {
        goals: GOALS,
        firstStartMs: first,
        restartMs: restart,
        emptyServerMs: floor,
        cpuMsToReady: { firstStart: firstCpu, restart: restartCpu, emptyServer: floorCpu },
        stopAfterSigtermMs: stats([...firstStarts, ...restarts].map((start) => start.stopMs)),
        stepsMsSinceProcessStart: { firstStart: medianSteps(firstStarts), restart: medianSteps(restarts) },
      },
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** Start-up on the embedded database; it does not use the PostgreSQL benchmark database. */
export const startupSuite: Suite = { name: 'startup', run: () => runStartupBench() };
