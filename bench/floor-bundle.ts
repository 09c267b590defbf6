/**
 * The floor of a function (DESIGN.md section 9): a bundle of only the AWS SDK clients the function
 * uses, each created once at init and sending one command from the handler, bundled with the
 * deployed esbuild options; image functions' floor loads sharp too. A function's bundle minus its
 * floor is what our code, its libraries and their glue cost. The floor's commands go to a closed
 * port on 127.0.0.1 with one attempt: the benches only init it, and the one invocation that checks
 * it sends gets its connection refused.
 */
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { join } from 'node:path';
import { BUNDLE_SETTINGS, DEPLOYED_SDK_SOURCE, esbuildOptions, PROJECT_ROOT, type SdkSource } from '../lib/function-bundling';
import { bundleOutput, DOCUMENT_CLIENT_PACKAGE } from './bundle-composition';
import { bundleFile, writeBuild, type WrittenBundle } from '../local/lambda/function-bundles';
import { installImageModules, type LambdaLayout } from '../local/lambda/lambda-layout';

/** The floor's endpoint: port 9 (discard) on this machine, where nothing listens. */
export const FLOOR_ENDPOINT = 'http://127.0.0.1:9';

/** What a floor's handler answers for a command whose connection was refused. */
export const REFUSED = 'ECONNREFUSED';

/** What it answers for a call that succeeded (sharp's). */
export const ANSWERED = 'answered';

const DYNAMODB_PACKAGE = '@aws-sdk/client-dynamodb';

/** How a floor creates one client and the one command it sends. */
interface ClientRecipe {
  /** The client class the package exports. */
  readonly client: string;
  readonly command: string;
  readonly input: unknown;
  /** Client options beyond the endpoint and the single attempt. */
  readonly options?: Readonly<Record<string, unknown>>;
}

/** The commands the floor sends for the clients the service uses: a read of one item or object. */
const KNOWN_RECIPES: Readonly<Record<string, ClientRecipe>> = {
  [DYNAMODB_PACKAGE]: { client: 'DynamoDBClient', command: 'GetItemCommand', input: { TableName: 'floor', Key: { pk: { S: 'floor' } } } },
  '@aws-sdk/client-s3': { client: 'S3Client', command: 'GetObjectCommand', input: { Bucket: 'floor', Key: 'floor' }, options: { forcePathStyle: true } },
};

/** The document client's read, sent instead of the DynamoDB client's own when a function uses it. */
const DOCUMENT_RECIPE = { client: 'DynamoDBDocumentClient', command: 'GetCommand', input: { TableName: 'floor', Key: { pk: 'floor' } } } as const;

/**
 * The recipe of a client package: a known one, or for any other `@aws-sdk/client-*` its client
 * class and first read command (`Get…`, `Describe…`, `List…`) found among its exports, so a
 * function that starts using a new client gets a floor without an edit here.
 */
export async function clientRecipe(pkg: string): Promise<ClientRecipe> {
  const known = KNOWN_RECIPES[pkg];
  if (known) return known;
  const names = Object.keys((await import(pkg)) as Record<string, unknown>);
  const client = names.find((name) => /^[A-Z]\w*Client$/.test(name));
  const commands = names.filter((name) => /^[A-Z]\w*Command$/.test(name)).sort();
  const command = commands.find((name) => /^(Get|Describe|List)/.test(name)) ?? commands[0];
  if (client === undefined || command === undefined) throw new Error(`${pkg} exports no client class and command to build a floor from`);
  return { client, command, input: {} };
}

/** A floor: the clients it creates, and whether it loads sharp. */
export interface Floor {
  /** Identifies the floor: functions with the same clients and image flag share it. */
  readonly key: string;
  /** `@aws-sdk/*` packages, sorted. */
  readonly clients: readonly string[];
  readonly image: boolean;
}

/** The floor of a function that uses `clients` (bench/bundle-composition.ts finds them), with sharp when `image`. */
export function floorOf(clients: readonly string[], image: boolean): Floor {
  const sorted = [...clients].sort();
  const names = [...sorted.map((pkg) => pkg.replace(/^@aws-sdk\//, '')), ...(image ? ['sharp'] : [])];
  return { key: names.length ? names.join('+') : 'no SDK', clients: sorted, image };
}

/** The outcomes a working floor's handler answers: one refusal per client, sharp's success last. */
export function expectedOutcomes(floor: Floor): string[] {
  const clients = floor.clients.filter((pkg) => pkg !== DOCUMENT_CLIENT_PACKAGE);
  const count = clients.length + (floor.clients.includes(DOCUMENT_CLIENT_PACKAGE) && !clients.includes(DYNAMODB_PACKAGE) ? 1 : 0);
  return [...Array.from({ length: count }, () => REFUSED), ...(floor.image ? [ANSWERED] : [])];
}

/** The floor's module: imports, the clients created at init, and a handler that sends each one command. */
export async function floorSource(floor: Floor): Promise<string> {
  const documentClient = floor.clients.includes(DOCUMENT_CLIENT_PACKAGE);
  const packages = floor.clients.filter((pkg) => pkg !== DOCUMENT_CLIENT_PACKAGE);
  // The document client wraps a DynamoDB client: the floor has to create one.
  if (documentClient && !packages.includes(DYNAMODB_PACKAGE)) packages.unshift(DYNAMODB_PACKAGE);
  const lines: string[] = [];
  const sends: string[] = [];
  for (const [index, pkg] of packages.entries()) {
    const recipe = await clientRecipe(pkg);
    const options = JSON.stringify({ endpoint: FLOOR_ENDPOINT, maxAttempts: 1, ...recipe.options });
    if (documentClient && pkg === DYNAMODB_PACKAGE) {
      lines.push(`import { ${recipe.client} as Client${index} } from '${pkg}';`);
      lines.push(`import { ${DOCUMENT_RECIPE.client}, ${DOCUMENT_RECIPE.command} as Command${index} } from '${DOCUMENT_CLIENT_PACKAGE}';`);
      lines.push(`const client${index} = ${DOCUMENT_RECIPE.client}.from(new Client${index}(${options}));`);
      sends.push(`client${index}.send(new Command${index}(${JSON.stringify(DOCUMENT_RECIPE.input)}))`);
    } else {
      lines.push(`import { ${recipe.client} as Client${index}, ${recipe.command} as Command${index} } from '${pkg}';`);
      lines.push(`const client${index} = new Client${index}(${options});`);
      sends.push(`client${index}.send(new Command${index}(${JSON.stringify(recipe.input)}))`);
    }
  }
  if (floor.image) {
    lines.push(`import sharp from 'sharp';`);
    sends.push(`sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).png().toBuffer()`);
  }
  return [
    ...lines,
    'export const handler = async () => (await Promise.allSettled([',
    ...sends.map((send) => `  ${send},`),
    `])).map((outcome) => (outcome.status === 'fulfilled' ? '${ANSWERED}' : String(outcome.reason?.code ?? outcome.reason?.name)));`,
    '',
  ].join('\n');
}

/** The deployed esbuild options with the floor's module as the entry, written to `outfile`. */
export async function floorOptions(floor: Floor, outfile: string, sdk: SdkSource = DEPLOYED_SDK_SOURCE): Promise<BuildOptions> {
  const { entryPoints: _entry, ...options } = esbuildOptions({ handler: BUNDLE_SETTINGS.outputFile, image: floor.image }, outfile, sdk);
  return { ...options, stdin: { contents: await floorSource(floor), resolveDir: PROJECT_ROOT, sourcefile: 'floor.mjs', loader: 'js' } };
}

/** A floor built in memory: its metafile and the size of its `index.mjs`. */
export interface BuiltFloor {
  readonly floor: Floor;
  readonly metafile: Metafile;
  readonly bytes: number;
}

/** Build `floor` in memory (nothing written), as deployed. */
export async function buildFloor(floor: Floor): Promise<BuiltFloor> {
  const result = await build({ ...(await floorOptions(floor, join('/floor', BUNDLE_SETTINGS.outputFile))), write: false, metafile: true });
  return { floor, metafile: result.metafile, bytes: bundleOutput(result.metafile).bytes };
}

/** The task folder name of a floor: its key, in characters any file system takes. */
function floorFolderName(floor: Floor): string {
  return `floor-${floor.key.replace(/[^\w.-]+/g, '_')}`;
}

/** Bundle `floor` into its task folder of `layout` with SDK source `sdk`, sharp beside it when the floor has it. */
export async function deployFloorToLayout(layout: LambdaLayout, floor: Floor, sdk: SdkSource): Promise<WrittenBundle> {
  const folder = layout.taskFolder(floorFolderName(floor));
  const written = await writeBuild(await floorOptions(floor, bundleFile(folder), sdk), folder);
  if (floor.image) await installImageModules(folder);
  return written;
}
