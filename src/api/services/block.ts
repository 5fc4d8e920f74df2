import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { Code } from "@connectrpc/connect";
import type { BlockMeta } from "../../chain/block-store.js";
import { addressFromBytes, valconsPrefix } from "../../core/address.js";
import { fromHex } from "../../core/bytes.js";
import { err, ok, plain, type Result } from "../../core/errors.js";
import {
  type GetBlockByHeightResponse,
  GetBlockByHeightResponseSchema,
  GetLatestBlockResponseSchema,
  GetNodeInfoResponseSchema,
  GetSyncingResponseSchema,
  Service,
} from "../../gen/chain/base/tendermint/v1beta1/query_pb.js";
import {
  type BlockID,
  BlockIDSchema,
  BlockSchema,
  CometBlockSchema,
  CometHeaderSchema,
  HeaderSchema,
} from "../../gen/chain/base/tendermint/v1beta1/types_pb.js";
import { type BoundService, bindService, type HandlerError, statusError } from "../backend.js";

/** What `GetNodeInfo` reports: the CometBFT node identity and the application's version info. */
export interface NodeInfo {
  readonly nodeId: string;
  readonly listenAddr: string;
  /** The chain id. */
  readonly network: string;
  /** CometBFT version string, e.g. `0.38.17`. */
  readonly version: string;
  readonly moniker: string;
  readonly rpcAddress: string;
  readonly appName: string;
  readonly appVersion: string;
  readonly gitCommit: string;
  readonly sdkVersion: string;
  /** ABCI app (protocol) version. */
  readonly protocolApp: bigint;
}

/** The node's block store as the block service reads it. Headers use the block store's `BlockMeta` shape. */
export interface BlockSource {
  /** Latest stored block height (0 = none). */
  latestHeight(): number;
  /** Lowest stored block height (the block store base). */
  baseHeight(): number;
  blockMeta(height: number): BlockMeta | undefined;
  blockTxs(height: number): readonly Uint8Array[];
  syncing(): boolean;
  nodeInfo(): NodeInfo;
}

const P2P_PROTOCOL = 8n;
/** The CometBFT default p2p channels. */
const CHANNELS = fromHex("40202122233038606100");

const bytes = (hexText: string): Uint8Array => (hexText === "" ? new Uint8Array(0) : fromHex(hexText));

function blockId(id: BlockMeta["block_id"]): BlockID {
  return create(BlockIDSchema, {
    hash: bytes(id.hash),
    partSetHeader: { total: id.parts.total, hash: bytes(id.parts.hash) },
  });
}

/** The response of both block queries for one stored block. */
/** The block in both shapes; the SDK header's proposer is a consensus address (`<prefix>valcons1…`). */
function blockResponse(
  meta: BlockMeta,
  txs: readonly Uint8Array[],
  prefix: string,
): Omit<GetBlockByHeightResponse, "$typeName"> {
  const h = meta.header;
  const height = BigInt(h.height);
  const proposer = bytes(h.proposer_address);
  const common = {
    version: { block: BigInt(h.version.block), app: 0n },
    chainId: h.chain_id,
    height,
    time: timestampFromMs(Date.parse(h.time)),
    lastBlockId: blockId(h.last_block_id),
    lastCommitHash: bytes(h.last_commit_hash),
    dataHash: bytes(h.data_hash),
    validatorsHash: bytes(h.validators_hash),
    nextValidatorsHash: bytes(h.next_validators_hash),
    consensusHash: bytes(h.consensus_hash),
    appHash: bytes(h.app_hash),
    lastResultsHash: bytes(h.last_results_hash),
    evidenceHash: bytes(h.evidence_hash),
  };
  const data = { txs: [...txs] };
  const evidence = { evidence: [] };
  const lastCommit = { height: height - 1n, round: 0, blockId: blockId(h.last_block_id) };
  return {
    blockId: blockId(meta.block_id),
    block: create(CometBlockSchema, {
      header: create(CometHeaderSchema, { ...common, proposerAddress: proposer }),
      data,
      evidence,
      lastCommit,
    }),
    sdkBlock: create(BlockSchema, {
      header: create(HeaderSchema, {
        ...common,
        proposerAddress: proposer.length === 0 ? "" : addressFromBytes(proposer, valconsPrefix(prefix)),
      }),
      data,
      evidence,
      lastCommit,
    }),
  };
}

/** CometBFT `getHeight` checks for an explicit height (plain errors: gRPC Unknown). */
function storedBlock(
  source: BlockSource,
  height: number,
): Result<{ meta: BlockMeta; txs: readonly Uint8Array[] }, HandlerError> {
  const latest = source.latestHeight();
  if (height <= 0) return err(plain(`height must be greater than 0, but got ${height}`));
  if (height > latest) {
    return err(plain(`height ${height} must be less than or equal to the current blockchain height ${latest}`));
  }
  const base = source.baseHeight();
  const meta = height < base ? undefined : source.blockMeta(height);
  if (meta === undefined) return err(plain(`height ${height} is not available, lowest height is ${base}`));
  return ok({ meta, txs: source.blockTxs(height) });
}

/**
 * `chain.base.tendermint.v1beta1.Service` over a block source (reference client/grpc/cmtservice); `prefix` is the
 * chain's bech32 account prefix.
 */
export function blockService(source: BlockSource, prefix: string): BoundService {
  return bindService(Service, {
    getNodeInfo() {
      const n = source.nodeInfo();
      return ok(
        create(GetNodeInfoResponseSchema, {
          defaultNodeInfo: {
            protocolVersion: { p2p: P2P_PROTOCOL, block: 11n, app: n.protocolApp },
            defaultNodeId: n.nodeId,
            listenAddr: n.listenAddr,
            network: n.network,
            version: n.version,
            channels: CHANNELS,
            moniker: n.moniker,
            other: { txIndex: "on", rpcAddress: n.rpcAddress },
          },
          applicationVersion: {
            name: n.appName,
            appName: n.appName,
            version: n.appVersion,
            gitCommit: n.gitCommit,
            buildTags: "",
            goVersion: "",
            buildDeps: [],
            cosmosSdkVersion: n.sdkVersion,
          },
        }),
      );
    },
    getSyncing() {
      return ok(create(GetSyncingResponseSchema, { syncing: source.syncing() }));
    },
    getLatestBlock() {
      const b = storedBlock(source, source.latestHeight());
      if (!b.ok) return b;
      return ok(create(GetLatestBlockResponseSchema, blockResponse(b.value.meta, b.value.txs, prefix)));
    },
    getBlockByHeight(_ctx, req) {
      if (req.height > BigInt(source.latestHeight())) {
        return err(statusError(Code.InvalidArgument, "requested block height is bigger then the chain length"));
      }
      const b = storedBlock(source, Number(req.height));
      if (!b.ok) return b;
      return ok(create(GetBlockByHeightResponseSchema, blockResponse(b.value.meta, b.value.txs, prefix)));
    },
  });
}
