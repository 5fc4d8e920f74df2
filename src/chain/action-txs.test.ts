import { describe, expect, it } from "vitest";
import { addressOfName, GOV_AUTHORITY } from "../core/address.js";
import { actionTxs } from "./action-txs.js";

describe("actionTxs", () => {
  const ids = (label: string) => (label === "up" ? 7n : undefined);
  it("resolves names to addresses, labels to ids, and default authorities per action", () => {
    const plan = { name: "v2", height: 10n, info: "" };
    expect(actionTxs({ type: "tx", from: "val1", messages: [{ type: "softwareUpgrade", plan }] }, ids)).toEqual({
      ok: true,
      txs: [
        {
          kind: "upgrade",
          signer: addressOfName("val1"),
          messages: [{ type: "softwareUpgrade", authority: addressOfName("val1"), plan }],
        },
      ],
    });
    const exec = actionTxs({ type: "authorityExec", messages: [{ type: "cancelUpgrade" }] }, ids);
    expect(exec).toMatchObject({
      ok: true,
      txs: [{ signer: GOV_AUTHORITY, messages: [{ authority: GOV_AUTHORITY }] }],
    });
    const votes = actionTxs(
      {
        type: "vote",
        proposal: "up",
        votes: [
          ["val1", "yes"],
          ["val2", "no"],
        ],
      },
      ids,
    );
    expect(votes).toMatchObject({
      ok: true,
      txs: [
        { proposalId: 7n, option: "yes" },
        { proposalId: 7n, option: "no" },
      ],
    });
  });
  it("reports a label whose submission has not succeeded, and sends nothing for node operations", () => {
    expect(actionTxs({ type: "deposit", proposal: "nope", from: "val1", amount: [] }, ids)).toEqual({
      ok: false,
      error: 'proposal "nope" has no id: its submission has not succeeded',
    });
    expect(actionTxs({ type: "stop", node: "val1" }, ids)).toBeUndefined();
  });
});
