/** One failed expectation: where it is in the file, what it wanted and what the chain had. */
export interface Failure {
  readonly at: string;
  readonly expected: unknown;
  readonly actual: unknown;
}

/** JSON with bigints as numbers: how expectations compare values and how failures print them. */
export const expectationJson = (v: unknown): string =>
  JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? Number(x) : x));

/** `<path>: expected <json>, got <json>`: the one line a failed expectation prints. */
export const failureText = (f: Failure): string =>
  `${f.at}: expected ${expectationJson(f.expected)}, got ${expectationJson(f.actual)}`;
