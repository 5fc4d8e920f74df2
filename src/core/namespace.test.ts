import { getOption } from "@bufbuild/protobuf";
import { MsgCancelUpgrade, MsgSoftwareUpgrade } from "cosmjs-types/cosmos/upgrade/v1beta1/tx";
import { describe, expect, it } from "vitest";
import { GRPC_METADATA_HEIGHT_HEADER, HEIGHT_HEADER } from "../api/height.js";
import { Query } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { http } from "../gen/google/api/annotations_pb.js";
import { MSG_CANCEL_UPGRADE_TYPE_URL, MSG_SOFTWARE_UPGRADE_TYPE_URL } from "../upgrade/msg-server.js";
import { NAMESPACES, namesOf } from "./namespace.js";

// The one name mapping: under `chain` it gives exactly the names the server uses today (height header, type URLs,
// proto packages, REST paths from the protos' http options); under `cosmos` the reference's (cosmjs-types).
describe("namespace names", () => {
  it("chain: the server's own names", () => {
    const n = namesOf("chain");
    expect(n.heightHeader).toBe(HEIGHT_HEADER);
    expect(`grpc-metadata-${n.heightHeader}`).toBe(GRPC_METADATA_HEIGHT_HEADER);
    expect(n.typeUrl("upgrade.v1beta1.MsgSoftwareUpgrade")).toBe(MSG_SOFTWARE_UPGRADE_TYPE_URL);
    expect(n.typeUrl("upgrade.v1beta1.MsgCancelUpgrade")).toBe(MSG_CANCEL_UPGRADE_TYPE_URL);
    expect(n.protoName("upgrade.v1beta1.Query")).toBe(Query.typeName);
    const rule = getOption(Query.method.currentPlan, http);
    expect(rule.pattern.case === "get" ? rule.pattern.value : "").toBe(n.rest("upgrade/v1beta1/current_plan"));
  });

  it("cosmos: the reference's names", () => {
    const n = namesOf("cosmos");
    expect(n.heightHeader).toBe("x-cosmos-block-height");
    expect(n.typeUrl("upgrade.v1beta1.MsgSoftwareUpgrade")).toBe(MsgSoftwareUpgrade.typeUrl);
    expect(n.typeUrl("upgrade.v1beta1.MsgCancelUpgrade")).toBe(MsgCancelUpgrade.typeUrl);
    expect(n.rest("/gov/v1/params/voting")).toBe("/cosmos/gov/v1/params/voting");
    expect(n.protoName("gov.v1.Query")).toBe("cosmos.gov.v1.Query");
  });

  it("typeName strips only the namespace's own prefix", () => {
    for (const ns of NAMESPACES) {
      const n = namesOf(ns);
      expect(n.typeName(n.typeUrl("gov.v1.MsgVote"))).toBe("gov.v1.MsgVote");
      expect(n.typeName(namesOf(ns === "chain" ? "cosmos" : "chain").typeUrl("gov.v1.MsgVote"))).toBeUndefined();
    }
  });
});

describe("fromChain", () => {
  it("renames chain packages, files, paths and type URLs; leaves other names", () => {
    const c = namesOf("cosmos");
    expect(c.fromChain("chain.gov.v1.Proposal")).toBe("cosmos.gov.v1.Proposal");
    expect(c.fromChain(".chain.gov.v1.Proposal")).toBe(".cosmos.gov.v1.Proposal");
    expect(c.fromChain("chain_proto")).toBe("cosmos_proto");
    expect(c.fromChain(".chain_proto.scalar")).toBe(".cosmos_proto.scalar");
    expect(c.fromChain("chain/gov/v1/gov.proto")).toBe("cosmos/gov/v1/gov.proto");
    expect(c.fromChain("chain_proto/chain.proto")).toBe("cosmos_proto/cosmos.proto");
    expect(c.fromChain("/chain/gov/v1/params/{params_type}")).toBe("/cosmos/gov/v1/params/{params_type}");
    expect(c.fromChain("/chain.gov.v1.MsgVote")).toBe("/cosmos.gov.v1.MsgVote");
    for (const other of ["google.protobuf.Any", "amino/amino.proto", "chainsim.x", "/chains/x", "grpc.reflection.v1"])
      expect(c.fromChain(other)).toBe(other);
    expect(namesOf("chain").fromChain("chain.gov.v1.Proposal")).toBe("chain.gov.v1.Proposal");
  });
});
