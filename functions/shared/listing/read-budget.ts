/**
 * What one request may read, in DynamoDB's read units as AWS bills them
 * (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html):
 * an eventually consistent read of up to 4 KB is half a unit, a Query is billed for the sum of the
 * sizes of the items it reads (filtered out or not) rounded up to 4 KB, and at least half a unit
 * even when it finds nothing; a BatchGetItem bills each key as a read of its own. Every read of a
 * listing is taken from one budget: before it is sent, at most what it can cost (its Limit times
 * the largest item it can read), and once answered, corrected to what DynamoDB says it consumed.
 */

/** Read units of one eventually consistent read of up to 4 KB: an item by key, or a Query that finds nothing. */
export const HALF_UNIT = 0.5;

/** Bytes an eventually consistent read unit reads: two 4 KB steps. */
export const BYTES_PER_READ_UNIT = 8192;

/** What a Query reading `bytes` of items costs, eventually consistent: whole 4 KB steps, half a unit each, half a unit at least. */
export function queryUnits(bytes: number): number {
  return Math.max(1, Math.ceil((2 * bytes) / BYTES_PER_READ_UNIT)) * HALF_UNIT;
}

/**
 * One request's read units: spent by every read it makes, shared by reads in flight at once. A part
 * of the request that runs beside another (the count beside the page) gets a share of its own, so
 * that neither can take what the other was given.
 */
export class ReadBudget {
  private used = 0;

  /**
   * @param limit Most read units this budget may spend.
   * @param parent The budget this one is a share of: what this one spends is spent there too.
   */
  public constructor(
    public readonly limit: number,
    private readonly parent?: ReadBudget,
  ) {}

  /** Units spent or set aside so far. */
  public get spent(): number {
    return this.used;
  }

  /** Units left (never below zero). */
  public get left(): number {
    return Math.max(0, this.limit - this.used);
  }

  /** Whether `units` more can be spent. */
  public allows(units: number): boolean {
    return units <= this.left;
  }

  /**
   * Set `estimate` aside for a read about to be sent (the most it can cost), so that reads in
   * flight at once never overdraw the budget together; the returned function replaces it with what
   * the read really cost once answered.
   */
  public reserve(estimate: number): (actual: number) => void {
    this.used += estimate;
    const parent = this.parent?.reserve(estimate);
    let settled = false;
    return (actual) => {
      if (settled) return;
      settled = true;
      this.used += actual - estimate;
      parent?.(actual);
    };
  }

  /** A share of at most `limit` of the units left here: what it spends is spent here too. */
  public share(limit: number): ReadBudget {
    return new ReadBudget(Math.min(limit, this.left), this);
  }
}
