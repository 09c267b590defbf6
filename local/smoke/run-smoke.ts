import { currentUserCheck } from './checks/current-user-check';
import { documentCheck } from './checks/document-check';
import { preflightCheck } from './checks/preflight-check';
import { unauthorizedCheck } from './checks/unauthorized-check';
import { unknownRouteCheck } from './checks/unknown-route-check';
import { probe, ProbeFailure } from './http-probe';
import type { CheckFindings, SmokeCheck, SmokeTarget } from './smoke-check';
import type { SmokeOptions } from './smoke-options';

/**
 * Run every smoke check against a stage and print one line per check, in a fixed order, as soon
 * as that check is known: `ok   document: OpenAPI 3.1.0, 10 operations`,
 * `FAIL 401: expected WWW-Authenticate: …, got none`, `skip user: needs --token`.
 */

/** The checks, in the order their lines are printed. */
export const SMOKE_CHECKS: readonly SmokeCheck[] = [documentCheck, unauthorizedCheck, preflightCheck, currentUserCheck, unknownRouteCheck];

/** How a check ended. */
export const CHECK_VERDICTS = { ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' } as const;

/** One of {@link CHECK_VERDICTS}' values. */
export type CheckVerdict = (typeof CHECK_VERDICTS)[keyof typeof CHECK_VERDICTS];

/** A check's line: its verdict and what follows the name. */
export interface CheckOutcome {
  readonly name: string;
  readonly verdict: CheckVerdict;
  readonly text: string;
}

function outcomeOf(name: string, findings: CheckFindings): CheckOutcome {
  if (findings.failures.length > 0) return { name, verdict: CHECK_VERDICTS.fail, text: findings.failures.join('; ') };
  const warnings = findings.warnings ?? [];
  if (warnings.length > 0) return { name, verdict: CHECK_VERDICTS.warn, text: `${findings.summary}; ${warnings.join('; ')}` };
  return { name, verdict: CHECK_VERDICTS.ok, text: findings.summary };
}

/** Run one check; a request without an answer fails it with the reason, an option it needs and lacks skips it. */
async function runCheck(check: SmokeCheck, target: SmokeTarget): Promise<CheckOutcome> {
  const lacking = check.needs.filter((need) => target.options[need] === undefined);
  if (lacking.length > 0) return { name: check.name, verdict: CHECK_VERDICTS.skip, text: `needs ${lacking.map((need) => `--${need}`).join(' and ')}` };
  try {
    return outcomeOf(check.name, await check.run(target));
  } catch (error) {
    if (error instanceof ProbeFailure) return { name: check.name, verdict: CHECK_VERDICTS.fail, text: error.message };
    throw error;
  }
}

/** The printed line of an outcome: the verdict in a column of five, the check's name, the text. */
export function outcomeLine(outcome: CheckOutcome): string {
  return `${outcome.verdict.padEnd(5)}${outcome.name}: ${outcome.text}`;
}

/**
 * Run the checks against the stage of `options`, all at once (each request under its own time
 * limit, so a run takes about one limit at worst), writing each line with `write` in order.
 * Returns the outcomes.
 */
export async function runSmoke(options: SmokeOptions, write: (line: string) => void): Promise<CheckOutcome[]> {
  const target: SmokeTarget = { options, request: (request) => probe(options.baseUrl, request, options.timeoutMs) };
  const running = SMOKE_CHECKS.map((check) => runCheck(check, target));
  const outcomes: CheckOutcome[] = [];
  for (const pending of running) {
    const outcome = await pending;
    write(outcomeLine(outcome));
    outcomes.push(outcome);
  }
  return outcomes;
}
