import { create, createRegistry } from "@bufbuild/protobuf";
import { anyPack } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { GetNodeInfoResponseSchema } from "../gen/chain/base/tendermint/v1beta1/query_pb.js";
import { BlockSchema } from "../gen/chain/base/tendermint/v1beta1/types_pb.js";
import {
  QueryAuthorityResponseSchema,
  QueryCurrentPlanResponseSchema,
  QueryModuleVersionsResponseSchema,
  QueryUpgradedConsensusStateResponseSchema,
} from "../gen/chain/upgrade/v1beta1/query_pb.js";
import {
  file_chain_upgrade_v1beta1_upgrade,
  ModuleVersionSchema,
  PlanSchema,
} from "../gen/chain/upgrade/v1beta1/upgrade_pb.js";
import { ServerReflectionRequestSchema } from "../gen/grpc/reflection/v1/reflection_pb.js";
import { DEFAULT_NON_NULLABLE, gatewayJson, MarshalError } from "./json.js";
import { goHtmlEscape } from "./json-compiled.js";

const opts = { nonNullable: DEFAULT_NON_NULLABLE };

describe("gateway JSON", () => {
  it("renders an unset message field as null", () => {
    expect(gatewayJson(QueryCurrentPlanResponseSchema, create(QueryCurrentPlanResponseSchema), opts)).toBe(
      '{"plan":null}',
    );
  });

  it("renders a plan with proto names, int64 strings, the zero time and a null Any", () => {
    const res = create(QueryCurrentPlanResponseSchema, { plan: create(PlanSchema, { name: "v2", height: 120n }) });
    expect(gatewayJson(QueryCurrentPlanResponseSchema, res, opts)).toBe(
      '{"plan":{"name":"v2","time":"0001-01-01T00:00:00Z","height":"120","info":"","upgraded_client_state":null}}',
    );
  });

  it("renders an unset non-nullable time as null without the non-nullable set", () => {
    const res = create(QueryCurrentPlanResponseSchema, { plan: create(PlanSchema, { name: "v2" }) });
    expect(gatewayJson(QueryCurrentPlanResponseSchema, res)).toContain('"time":null');
  });

  it("renders empty bytes as null and non-empty bytes as standard base64", () => {
    const s = QueryUpgradedConsensusStateResponseSchema;
    expect(gatewayJson(s, create(s))).toBe('{"upgraded_consensus_state":null}');
    expect(gatewayJson(s, create(s, { upgradedConsensusState: Uint8Array.of(0xfb, 0xff) }))).toBe(
      '{"upgraded_consensus_state":"+/8="}',
    );
  });

  it("renders empty lists as [] and uint64 as strings", () => {
    const s = QueryModuleVersionsResponseSchema;
    expect(gatewayJson(s, create(s))).toBe('{"module_versions":[]}');
    const two = create(s, {
      moduleVersions: [
        create(ModuleVersionSchema, { name: "auth", version: 5n }),
        create(ModuleVersionSchema, { name: "bank", version: 4n }),
      ],
    });
    expect(gatewayJson(s, two)).toBe(
      '{"module_versions":[{"name":"auth","version":"5"},{"name":"bank","version":"4"}]}',
    );
  });

  it("escapes HTML characters and line separators like Go", () => {
    const s = QueryAuthorityResponseSchema;
    expect(gatewayJson(s, create(s, { address: '<a&b>\u2028\u2029"' }))).toBe(
      '{"address":"\\u003ca\\u0026b\\u003e\\u2028\\u2029\\""}',
    );
    expect(goHtmlEscape('"<"')).toBe('"\\u003c"');
  });

  it("renders Any with the stored type URL and its payload patched", () => {
    const any = anyPack(ModuleVersionSchema, create(ModuleVersionSchema, { name: "x", version: 1n }));
    any.typeUrl = "/chain.upgrade.v1beta1.ModuleVersion";
    const plan = create(PlanSchema, { name: "p", upgradedClientState: any });
    const registry = createRegistry(file_chain_upgrade_v1beta1_upgrade);
    expect(gatewayJson(PlanSchema, plan, { ...opts, registry })).toBe(
      '{"name":"p","time":"0001-01-01T00:00:00Z","height":"0","info":"","upgraded_client_state":{"@type":"/chain.upgrade.v1beta1.ModuleVersion","name":"x","version":"1"}}',
    );
    expect(() => gatewayJson(PlanSchema, plan, opts)).toThrow(MarshalError);
  });

  it("renders gogoproto non-nullable sub-messages as zero values", () => {
    expect(gatewayJson(BlockSchema, create(BlockSchema), opts)).toBe(
      '{"header":{"version":{"block":"0","app":"0"},"chain_id":"","height":"0","time":"0001-01-01T00:00:00Z","last_block_id":{"hash":null,"part_set_header":{"total":0,"hash":null}},"last_commit_hash":null,"data_hash":null,"validators_hash":null,"next_validators_hash":null,"consensus_hash":null,"app_hash":null,"last_results_hash":null,"evidence_hash":null,"proposer_address":""},"data":{"txs":[]},"evidence":{"evidence":[]},"last_commit":null}',
    );
  });

  it("omits an unset oneof and renders a set one under its field name", () => {
    const s = ServerReflectionRequestSchema;
    expect(gatewayJson(s, create(s, { host: "h" }))).toBe('{"host":"h"}');
    expect(gatewayJson(s, create(s, { messageRequest: { case: "listServices", value: "*" } }))).toBe(
      '{"host":"","list_services":"*"}',
    );
  });

  it("keeps nested messages in declaration order with defaults", () => {
    const out = gatewayJson(GetNodeInfoResponseSchema, create(GetNodeInfoResponseSchema), opts);
    expect(out).toBe('{"default_node_info":null,"application_version":null}');
  });
});
