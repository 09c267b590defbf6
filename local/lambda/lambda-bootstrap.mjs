/**
 * Loads a function's bundle in this fresh Node process the way the Lambda Node.js runtime loads a
 * handler, and in `invoke` mode calls it once. Plain JavaScript with Node built-ins only: it must run
 * beside a bundle that can resolve nothing but what the runtime provides.
 *
 *   node lambda-bootstrap.mjs init   TASK_ROOT index.handler   -> fd 3: {"importMs": …}
 *   node lambda-bootstrap.mjs invoke TASK_ROOT index.handler   (stdin: {"event", "context"})
 *                                                               -> fd 3: {"result": …} or {"error": …}
 *
 * Answers go to file descriptor 3 because stdout and stderr carry the function's logs, as in Lambda.
 * An error says its phase (`init`: loading the module, `invoke`: the handler) and carries the
 * runtime's error type (`Runtime.ImportModuleError`, `Runtime.HandlerNotFound`, or the thrown
 * error's name).
 */
import { existsSync, readFileSync, writeSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** The runtime's handler syntax: `module.export`, the module relative to the task root. */
const HANDLER_EXPRESSION = /^([^.]*)\.(.*)$/;
/** The runtime tries these suffixes in order and loads the first file that exists with import(). */
const MODULE_EXTENSIONS = ['', '.js', '.mjs', '.cjs'];
const ANSWER_FD = 3;

class RuntimeError extends Error {
  constructor(type, message, cause) {
    super(message, { cause });
    this.name = type;
  }
}

function answer(value) {
  writeSync(ANSWER_FD, JSON.stringify(value));
}

function describeError(phase, error) {
  const cause = error instanceof Error ? error : new Error(String(error));
  return { phase, errorType: cause.name, errorMessage: cause.message, stack: String((cause.cause instanceof Error ? cause.cause : cause).stack ?? '') };
}

/**
 * Resolve and import the handler as aws-lambda-nodejs-runtime-interface-client does
 * (src/utils/handler-path.ts, src/function/module-loader.ts, src/function/dynamic-imports.ts).
 */
async function loadHandler(taskRoot, handlerString) {
  const match = HANDLER_EXPRESSION.exec(basename(handlerString));
  if (!match) throw new RuntimeError('Runtime.MalformedHandlerName', `Bad handler ${handlerString}`);
  const [, moduleName, handlerName] = match;
  const modulePath = resolve(taskRoot, handlerString.slice(0, handlerString.length - basename(handlerString).length), moduleName);
  const file = MODULE_EXTENSIONS.map((extension) => `${modulePath}${extension}`).find((candidate) => existsSync(candidate));
  if (file === undefined) throw new RuntimeError('Runtime.ImportModuleError', `Cannot find module '${moduleName}'`);
  let module;
  try {
    module = await import(pathToFileURL(file).href);
  } catch (error) {
    const missing = error?.code === 'ERR_MODULE_NOT_FOUND' || error?.code === 'MODULE_NOT_FOUND';
    if (missing) throw new RuntimeError('Runtime.ImportModuleError', `Error: ${error.message}`, error);
    throw error;
  }
  const handler = module[handlerName];
  if (typeof handler !== 'function') throw new RuntimeError('Runtime.HandlerNotFound', `${handlerString} is undefined or not exported`);
  return handler;
}

/** The context object of one invocation: the fields given, and the deadline as a function. */
function lambdaContext(fields) {
  const { deadlineMs, ...data } = fields;
  return {
    ...data,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, deadlineMs - Date.now()),
  };
}

async function main() {
  const [mode, taskRoot, handlerString] = process.argv.slice(2);
  const started = performance.now();
  let handler;
  try {
    handler = await loadHandler(taskRoot, handlerString);
  } catch (error) {
    answer({ error: describeError('init', error) });
    return 1;
  }
  const importMs = performance.now() - started;
  if (mode === 'init') {
    answer({ importMs });
    return 0;
  }
  const { event, context } = JSON.parse(readFileSync(0, 'utf8'));
  try {
    answer({ importMs, result: (await handler(event, lambdaContext(context))) ?? null });
    return 0;
  } catch (error) {
    answer({ importMs, error: describeError('invoke', error) });
    return 0;
  }
}

// Exit once the answer is out: Lambda freezes the sandbox after a response and waits for no open
// socket or timer (the SDK's keep-alive connections would hold a plain Node process open).
process.exit(await main());
