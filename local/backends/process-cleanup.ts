/**
 * Last-resort cleanup when this process ends without calling `stop()`: children are signalled
 * on exit, Ctrl-C and SIGTERM. (They also exit when their stdin closes, which covers SIGKILL.)
 */

/** A synchronous cleanup step; `process.on('exit')` cannot wait for promises. */
export type CleanupStep = () => void;

const TERMINATING_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const steps = new Set<CleanupStep>();
let installed = false;

function runSteps(): void {
  for (const step of [...steps]) {
    steps.delete(step);
    try {
      step();
    } catch {
      // Best effort: one failing step must not keep the others from running at exit.
    }
  }
}

function onSignal(signal: NodeJS.Signals): void {
  runSteps();
  // A listener replaces Node's default "exit on signal"; re-raise it unless the application
  // listens too, in which case stopping is its decision.
  if (process.listenerCount(signal) === 1) {
    process.removeListener(signal, onSignal);
    process.kill(process.pid, signal);
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.on('exit', runSteps);
  for (const signal of TERMINATING_SIGNALS) process.on(signal, onSignal);
}

/** Runs `step` when the process exits or is signalled, unless `unregister` was called first. */
export function registerCleanup(step: CleanupStep): () => void {
  install();
  steps.add(step);
  return () => {
    steps.delete(step);
  };
}
