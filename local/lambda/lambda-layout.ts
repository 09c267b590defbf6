/**
 * The files of a Lambda execution environment, rebuilt in a temporary folder outside the project so
 * a bundle resolves exactly what it would in AWS: its own folder (the function's `/var/task`, with
 * sharp beside the bundle for image functions, as the stack installs it) and the packages the
 * Node.js runtime provides, nothing else.
 *
 * In AWS the runtime's packages (the AWS SDK v3) live in `/var/runtime/node_modules`, on `NODE_PATH`,
 * which the Node.js 18+ runtimes also search for ES module imports
 * (https://aws.amazon.com/blogs/compute/node-js-18-x-runtime-now-available-in-aws-lambda/). Plain
 * Node does not read `NODE_PATH` for ES modules, so here they sit in `<root>/node_modules`, which
 * Node's resolution reaches from `<root>/task/<name>` after the task's own `node_modules`: the same
 * lookup order. Those packages are links to the project's installed copies, whose `main` is their
 * CommonJS build, the only one the runtime ships
 * (https://github.com/aws/aws-lambda-base-images/issues/80); Node follows the links to their real
 * path, so the SDK's own dependency closure resolves from the project as it does inside the runtime.
 */
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { PROJECT_ROOT, IMAGE_NODE_MODULES, SDK_SOURCES, type SdkSource } from '../../lib/function-bundling';
import { writeBundle, type DeployedFunction, type OptionsChange, type WrittenBundle } from './function-bundles';

/** The SDK packages the runtime provides: every `@aws-sdk/*` package installed in the project. */
const RUNTIME_SDK_SCOPE = '@aws-sdk';

/** A Lambda-like file layout; {@link remove} deletes it. */
export interface LambdaLayout {
  /** The temporary folder everything lives in. */
  readonly root: string;
  /** Packages every bundle can import because the runtime provides them. */
  readonly runtimePackages: readonly string[];
  /** The `/var/task` folder of function `name`. */
  taskFolder(name: string): string;
  remove(): Promise<void>;
}

/** Where Node would look for packages above `folder`: none may exist, or bundles would resolve more than the runtime provides. */
function assertNoPackagesAbove(folder: string): void {
  for (let current = dirname(folder); ; current = dirname(current)) {
    if (existsSync(join(current, 'node_modules'))) {
      throw new Error(`${join(current, 'node_modules')} exists: bundles under ${folder} would resolve packages the Lambda runtime does not provide. Set TMPDIR to a folder without one above it.`);
    }
    if (current === parse(current).root) return;
  }
}

async function linkRuntimePackages(root: string): Promise<string[]> {
  const scope = join(PROJECT_ROOT, 'node_modules', RUNTIME_SDK_SCOPE);
  const names = (await readdir(scope)).sort();
  await mkdir(join(root, 'node_modules', RUNTIME_SDK_SCOPE), { recursive: true });
  await Promise.all(names.map((name) => symlink(join(scope, name), join(root, 'node_modules', RUNTIME_SDK_SCOPE, name), 'dir')));
  return names.map((name) => `${RUNTIME_SDK_SCOPE}/${name}`);
}

/**
 * A fresh layout in the system's temporary folder. With `runtimeSdk` false nothing is provided, to
 * prove bundles that carry their SDK need nothing from outside.
 */
export async function createLambdaLayout(options: { readonly runtimeSdk: boolean }): Promise<LambdaLayout> {
  const root = await mkdtemp(join(tmpdir(), 'frontend-api-lambda-'));
  try {
    assertNoPackagesAbove(root);
    const runtimePackages = options.runtimeSdk ? await linkRuntimePackages(root) : [];
    return {
      root,
      runtimePackages,
      taskFolder: (name) => join(root, 'task', name),
      remove: () => rm(root, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(root, { recursive: true, force: true });
    throw error;
  }
}

/** Whether a layout provides the SDK the bundles of `sdk` leave out. */
export function providesSdkFor(sdk: SdkSource): boolean {
  return sdk === SDK_SOURCES.runtime;
}

/**
 * Bundle `fn` into its task folder of `layout` as the stack deploys it: the bundle, and for image
 * functions the host's sharp beside it (the stack installs the linux-arm64 build there).
 */
export async function deployToLayout(layout: LambdaLayout, fn: DeployedFunction, sdk: SdkSource, adjust?: OptionsChange): Promise<WrittenBundle> {
  const written = await writeBundle(fn, layout.taskFolder(fn.name), sdk, adjust);
  if (fn.image) await installImageModules(written.folder);
  return written;
}

/** The host's sharp beside a bundle in `folder`, as the stack installs it for image functions. */
export async function installImageModules(folder: string): Promise<void> {
  await mkdir(join(folder, 'node_modules'), { recursive: true });
  for (const name of IMAGE_NODE_MODULES) await symlink(join(PROJECT_ROOT, 'node_modules', name), join(folder, 'node_modules', name), 'dir');
}
