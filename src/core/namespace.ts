/**
 * The wire namespace of a node (docs/node-api.md, docs/profile-format.md): the one name mapping between chainsim's
 * own names and the reference's (Cosmos SDK v0.50). A node speaks `chain` (chainsim's default: `/chain/...` REST
 * paths, the `x-chain-block-height` header, `/chain.*` type URLs, `chain.*` proto packages) or `cosmos` (the
 * reference's `/cosmos/...`, `x-cosmos-block-height`, `/cosmos.*`, `cosmos.*`). Both carry the same shapes: only the
 * first word of each name differs.
 *
 * Contract: every name a reader or a server builds for a namespace comes from `namesOf`; a name is the namespace's
 * word followed by the reference's name without its own first word (`upgrade.v1beta1.MsgSoftwareUpgrade`,
 * `upgrade/v1beta1/current_plan`).
 */

/** The wire namespaces a node can speak: chainsim's own `chain`, or the reference's `cosmos`. */
export const NAMESPACES = ["chain", "cosmos"] as const;
export type Namespace = (typeof NAMESPACES)[number];

export interface NamespaceNames {
  readonly namespace: Namespace;
  /** The REST (grpc-gateway) path of a route given without the namespace: `rest("gov/v1/params/voting")`. */
  rest(path: string): string;
  /** The request header (and gRPC metadata key) that selects the state height, and the response header carrying it. */
  readonly heightHeader: string;
  /** The type URL of a message given by its name without the namespace: `typeUrl("upgrade.v1beta1.MsgCancelUpgrade")`. */
  typeUrl(name: string): string;
  /** The full proto name (package and type, or service) of a name given without the namespace. */
  protoName(name: string): string;
  /** A type URL of this namespace without its prefix (`upgrade.v1beta1.Plan`), or undefined for another namespace's. */
  typeName(typeUrl: string): string | undefined;
  /**
   * A `chain` name in this namespace: a proto package or full name, with or without the leading dot
   * (`chain.gov.v1.Proposal` → `cosmos.gov.v1.Proposal`, `.chain_proto.scalar` → `.cosmos_proto.scalar`), a proto file
   * (`chain/gov/v1/gov.proto` → `cosmos/gov/v1/gov.proto`, `chain_proto/chain.proto` → `cosmos_proto/cosmos.proto`), a
   * REST path (`/chain/gov/v1/params` → `/cosmos/gov/v1/params`) or a type URL (`/chain.gov.v1.MsgVote`). Any other
   * name (`google.protobuf.Any`, `amino/amino.proto`) is returned as it is.
   */
  fromChain(name: string): string;
}

/** Whether a string names a namespace. */
export const isNamespace = (s: string): s is Namespace => (NAMESPACES as readonly string[]).includes(s);

const NAMES = new Map<Namespace, NamespaceNames>();

/** The names of one namespace (built once per namespace: every query asks for them). */
export function namesOf(namespace: Namespace): NamespaceNames {
  let n = NAMES.get(namespace);
  if (n === undefined) {
    n = Object.freeze(buildNames(namespace));
    NAMES.set(namespace, n);
  }
  return n;
}

function buildNames(namespace: Namespace): NamespaceNames {
  const typePrefix = `/${namespace}.`;
  return {
    namespace,
    rest: (path) => `/${namespace}/${path.replace(/^\/+/, "")}`,
    heightHeader: `x-${namespace}-block-height`,
    typeUrl: (name) => `${typePrefix}${name}`,
    protoName: (name) => `${namespace}.${name}`,
    typeName: (typeUrl) => (typeUrl.startsWith(typePrefix) ? typeUrl.slice(typePrefix.length) : undefined),
    fromChain: (name) => (namespace === "chain" ? name : renameChain(name, namespace)),
  };
}

/** The `chain` word at the start of a name (after an optional `.` or `/`), as a package, a file or a path segment. */
const CHAIN_HEAD = /^([./]?)chain(_proto)?(?=[./]|$)/;

function renameChain(name: string, namespace: Namespace): string {
  if (name === "chain_proto/chain.proto") return `${namespace}_proto/${namespace}.proto`;
  return name.replace(CHAIN_HEAD, (_m, lead: string, proto: string | undefined) => `${lead}${namespace}${proto ?? ""}`);
}
