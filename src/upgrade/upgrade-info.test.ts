import { describe, expect, it } from "vitest";
import { makePlan } from "./plan.js";
import { parseUpgradeInfoJson, planToUpgradeInfoJson } from "./upgrade-info.js";

const decode = (text: string) => {
  const r = parseUpgradeInfoJson(text);
  return r.ok
    ? { plan: { name: r.value.name, height: r.value.height, info: r.value.info, time: r.value.time?.seconds } }
    : { error: r.error.message, plan: { name: r.plan.name, height: r.plan.height, info: r.plan.info } };
};

describe("upgrade-info.json encoding (docs/fidelity.md §2.5)", () => {
  it("writes name, zero time and height as a number, without whitespace or newline", () => {
    expect(planToUpgradeInfoJson(makePlan({ name: "test", height: 11n }))).toBe(
      '{"name":"test","time":"0001-01-01T00:00:00Z","height":11}',
    );
  });
  it("adds info last and omits empty name, zero height and empty info", () => {
    expect(planToUpgradeInfoJson(makePlan({ name: "v2", height: 7n, info: "x" }))).toBe(
      '{"name":"v2","time":"0001-01-01T00:00:00Z","height":7,"info":"x"}',
    );
    expect(planToUpgradeInfoJson(makePlan({}))).toBe('{"time":"0001-01-01T00:00:00Z"}');
    expect(planToUpgradeInfoJson(makePlan({ height: -2n }))).toBe('{"time":"0001-01-01T00:00:00Z","height":-2}');
  });
  it("escapes like Go's encoder (HTML characters, line separators)", () => {
    const info = '{"binaries":{"linux/amd64":"https://x/a?checksum=sha256:1&b=<2>"}}\u2028';
    expect(planToUpgradeInfoJson(makePlan({ name: "v2", height: 1n, info }))).toBe(
      '{"name":"v2","time":"0001-01-01T00:00:00Z","height":1,"info":"{\\"binaries\\":{\\"linux/amd64\\":\\"https://x/a?checksum=sha256:1\\u0026b=\\u003c2\\u003e\\"}}\\u2028"}',
    );
  });
  it("round-trips through the decoder", () => {
    const p = makePlan({ name: "v2 <&>", height: 99n, info: "a\nb" });
    const r = parseUpgradeInfoJson(planToUpgradeInfoJson(p));
    expect(r.ok && [r.value.name, r.value.height, r.value.info]).toEqual(["v2 <&>", 99n, "a\nb"]);
  });
});

describe("upgrade-info.json decoding (Go json.Unmarshal into Plan)", () => {
  it("ignores unknown fields and matches keys case-insensitively", () => {
    expect(decode('{"NAME":"a","Height":5,"extra":[1,{"x":2}],"info":"i"}')).toEqual({
      plan: { name: "a", height: 5n, info: "i", time: undefined },
    });
  });
  it("a later duplicate key wins; null leaves a value unchanged", () => {
    expect(decode('{"name":"a","name":"b","height":5,"height":null}').plan).toMatchObject({ name: "b", height: 5n });
  });
  it("null for any field is no error and keeps what an earlier key set (a hand edit that nulls a field)", () => {
    // Go: null into a string or int64 has no effect; time.Time's UnmarshalJSON returns nil for null.
    expect(
      decode(
        '{"name":"v2","height":5,"info":"i","time":"1970-01-01T00:00:00Z","name":null,"height":null,"info":null,"time":null}',
      ),
    ).toEqual({ plan: { name: "v2", height: 5n, info: "i", time: 0n } });
    expect(decode('{"time":null,"name":"v2","height":7}')).toEqual({
      plan: { name: "v2", height: 7n, info: "", time: undefined },
    });
  });
  it("reports a wrong type as Go does and keeps decoding the other fields", () => {
    expect(decode('{"height":"11","name":"x"}')).toEqual({
      error: "json: cannot unmarshal string into Go struct field Plan.height of type int64",
      plan: { name: "x", height: 0n, info: "" },
    });
    expect(decode('{"name":5}').error).toBe(
      "json: cannot unmarshal number into Go struct field Plan.name of type string",
    );
    expect(decode('{"info":{}}').error).toBe(
      "json: cannot unmarshal object into Go struct field Plan.info of type string",
    );
    expect(decode('{"height":true}').error).toBe(
      "json: cannot unmarshal bool into Go struct field Plan.height of type int64",
    );
  });
  it("reports the first of several type errors", () => {
    expect(decode('{"info":[],"height":"x"}').error).toBe(
      "json: cannot unmarshal array into Go struct field Plan.info of type string",
    );
  });
  it("rejects non-integer and out-of-range heights with the number text", () => {
    expect(decode('{"height":1.5}').error).toBe(
      "json: cannot unmarshal number 1.5 into Go struct field Plan.height of type int64",
    );
    expect(decode('{"height":1e3}').error).toBe(
      "json: cannot unmarshal number 1e3 into Go struct field Plan.height of type int64",
    );
    expect(decode('{"height":9223372036854775808}').error).toBe(
      "json: cannot unmarshal number 9223372036854775808 into Go struct field Plan.height of type int64",
    );
    expect(decode('{"height":-9223372036854775808}').plan.height).toBe(-9223372036854775808n);
    expect(decode('{"height":9223372036854775807}')).toEqual({
      plan: { name: "", height: 9223372036854775807n, info: "", time: undefined },
    });
    expect(decode('{"height":-9223372036854775809}').error).toBe(
      "json: cannot unmarshal number -9223372036854775809 into Go struct field Plan.height of type int64",
    );
  });
  it("a top-level non-object is a type error; null decodes to the zero plan", () => {
    expect(decode("[]").error).toBe("json: cannot unmarshal array into Go value of type types.Plan");
    expect(decode('"x"').error).toBe("json: cannot unmarshal string into Go value of type types.Plan");
    expect(decode("null")).toEqual({ plan: { name: "", height: 0n, info: "", time: undefined } });
  });
  it("malformed JSON is a syntax error", () => {
    expect(decode('{"name":"x",').error).toBe("unexpected end of JSON input");
    expect(decode("{name:1}").error).toBe("invalid character 'n' looking for beginning of object key string");
  });
  it("time: a valid RFC 3339 string is decoded; other values abort decoding at once", () => {
    expect(decode('{"time":"1970-01-01T00:00:00Z"}').plan.time).toBe(0n);
    expect(decode('{"name":"a","time":5,"height":7}')).toEqual({
      error: "Time.UnmarshalJSON: input is not a JSON string",
      plan: { name: "a", height: 0n, info: "" },
    });
    expect(decode('{"height":"x","time":"bad"}').error).toBe(
      'parsing time "bad" as "2006-01-02T15:04:05Z07:00": cannot parse "bad" as "2006"',
    );
  });
  it("upgraded_client_state: any non-null value sets it, null clears it", () => {
    const set = parseUpgradeInfoJson('{"upgraded_client_state":"anything"}');
    expect(set.ok && set.value.upgradedClientState !== undefined).toBe(true);
    const cleared = parseUpgradeInfoJson('{"upgraded_client_state":{},"upgraded_client_state":null}');
    expect(cleared.ok && cleared.value.upgradedClientState === undefined).toBe(true);
  });
});
