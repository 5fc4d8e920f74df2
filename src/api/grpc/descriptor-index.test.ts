import { describe, expect, it } from "vitest";
import { file_chain_bank_v1beta1_query } from "../../gen/chain/bank/v1beta1/query_pb.js";
import { file_chain_gov_v1_query } from "../../gen/chain/gov/v1/query_pb.js";
import { wireService } from "../wire.js";
import { DescriptorIndex } from "./descriptor-index.js";
import { REFLECTION_SERVICES } from "./reflection.js";

// grpc-go server reflection resolves, besides the registry's types, the symbols declared inside them: fields, oneofs,
// enum values in their C++ scope (the enclosing message, else the package) and methods. The pool is the served files
// and their imports, nothing more: a file no served service needs is not found.
const index = new DescriptorIndex([file_chain_gov_v1_query, ...REFLECTION_SERVICES.map((s) => s.file)]);
const fileOf = (symbol: string) => index.fileContainingSymbol(symbol)?.proto.name;

describe("DescriptorIndex", () => {
  it("resolves types and the members inside them to their declaring file", () => {
    expect(fileOf("chain.gov.v1.Proposal")).toBe("chain/gov/v1/gov.proto");
    expect(fileOf("chain.gov.v1.Proposal.voting_end_time")).toBe("chain/gov/v1/gov.proto");
    expect(fileOf("chain.gov.v1.Query.Proposal")).toBe("chain/gov/v1/query.proto");
    expect(fileOf("grpc.reflection.v1.ServerReflectionRequest.message_request")).toBe(
      "grpc/reflection/v1/reflection.proto",
    );
    // A top-level enum's values live in the package scope, not under the enum's name.
    expect(fileOf("chain.gov.v1.PROPOSAL_STATUS_PASSED")).toBe("chain/gov/v1/gov.proto");
    expect(fileOf("chain.gov.v1.ProposalStatus.PROPOSAL_STATUS_PASSED")).toBeUndefined();
    expect(fileOf("chain.gov.v1.Proposal.no_such_field")).toBeUndefined();
  });

  it("holds the served files and their imports only", () => {
    expect(index.fileByName("google/protobuf/timestamp.proto")?.proto.name).toBe("google/protobuf/timestamp.proto");
    expect(index.fileByName(file_chain_bank_v1beta1_query.proto.name)).toBeUndefined();
    expect(fileOf("chain.bank.v1beta1.Query")).toBeUndefined();
  });

  it("finds extensions by extendee and number, and lists a type's extension numbers", () => {
    const http = index.fileContainingExtension("google.protobuf.MethodOptions", 72295728);
    expect(http?.proto.name).toBe("google/api/annotations.proto");
    expect(index.fileContainingExtension("google.protobuf.MethodOptions", 1)).toBeUndefined();
    expect(index.fileContainingExtension("no.such.Type", 72295728)).toBeUndefined();
    expect(index.extensionNumbers("google.protobuf.MethodOptions")).toContain(72295728);
    expect(index.extensionNumbers("chain.gov.v1.Proposal")).toEqual([]);
    expect(index.extensionNumbers("no.such.Type")).toBeUndefined();
  });

  it("indexes the cosmos namespace's renamed files under their cosmos names", () => {
    const cosmos = new DescriptorIndex([wireService(file_chain_gov_v1_query.services[0]!, "cosmos").file]);
    expect(cosmos.fileContainingSymbol("cosmos.gov.v1.PROPOSAL_STATUS_PASSED")?.proto.name).toBe(
      "cosmos/gov/v1/gov.proto",
    );
    expect(cosmos.fileContainingSymbol("chain.gov.v1.Proposal")).toBeUndefined();
  });
});
