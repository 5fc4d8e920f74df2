import { create, type DescFile, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { file_chain_auth_v1beta1_auth } from "../../gen/chain/auth/v1beta1/auth_pb.js";
import { file_chain_base_abci_v1beta1_abci } from "../../gen/chain/base/abci/v1beta1/abci_pb.js";
import { file_chain_crypto_multisig_v1beta1_multisig } from "../../gen/chain/crypto/multisig/v1beta1/multisig_pb.js";
import { file_chain_crypto_secp256k1_keys } from "../../gen/chain/crypto/secp256k1/keys_pb.js";
import { file_chain_gov_v1_tx } from "../../gen/chain/gov/v1/tx_pb.js";
import { file_chain_msg_v1_msg } from "../../gen/chain/msg/v1/msg_pb.js";
import { file_chain_tx_v1beta1_tx } from "../../gen/chain/tx/v1beta1/tx_pb.js";
import { file_chain_upgrade_v1beta1_tx } from "../../gen/chain/upgrade/v1beta1/tx_pb.js";
import {
  type ServerReflectionRequest,
  type ServerReflectionResponse,
  ServerReflectionResponseSchema,
  ServerReflection as ServerReflectionV1,
} from "../../gen/grpc/reflection/v1/reflection_pb.js";
import {
  ServerReflectionResponseSchema as ResponseSchemaV1alpha,
  ServerReflection as ServerReflectionV1alpha,
} from "../../gen/grpc/reflection/v1alpha/reflection_pb.js";
import type { DescriptorIndex } from "./descriptor-index.js";

/**
 * Files whose types a response can mention inside an `Any` without importing them (grpc-go serves the whole
 * process registry): the messages a proposal or a tx carries (gov and upgrade tx files, with the msg options they
 * import), accounts and public keys (auth, secp256k1, multisig), the tx itself and the tx result's message
 * responses. Without them `buf curl` and grpcurl cannot print a gov Proposal, an auth Account or a GetTx answer.
 */
export const ANY_TYPE_FILES: readonly DescFile[] = [
  file_chain_gov_v1_tx,
  file_chain_upgrade_v1beta1_tx,
  file_chain_auth_v1beta1_auth,
  file_chain_crypto_secp256k1_keys,
  file_chain_crypto_multisig_v1beta1_multisig,
  file_chain_tx_v1beta1_tx,
  file_chain_base_abci_v1beta1_abci,
  file_chain_msg_v1_msg,
];

/** The two reflection services (grpc-go registers both; grpcurl tries v1, then v1alpha). */
export const REFLECTION_SERVICES = [ServerReflectionV1, ServerReflectionV1alpha] as const;

/** protobuf-go `protoregistry.NotFound`. */
const NOT_FOUND = "proto: not found";

type ResponseInit = NonNullable<MessageInitShape<typeof ServerReflectionResponseSchema>["messageResponse"]>;

/**
 * Answers one request (grpc-go `reflection/serverreflection.go` semantics). `sent` is the per-stream set of files
 * already sent; a request without a `message_request` fails the stream with InvalidArgument.
 */
export function answer(
  index: DescriptorIndex,
  serviceNames: readonly string[],
  req: ServerReflectionRequest,
  sent: Set<string>,
): ResponseInit {
  const notFound: ResponseInit = {
    case: "errorResponse",
    value: { errorCode: Code.NotFound, errorMessage: NOT_FOUND },
  };
  const files = (f: DescFile | undefined): ResponseInit =>
    f === undefined
      ? notFound
      : { case: "fileDescriptorResponse", value: { fileDescriptorProto: index.withDependencies(f, sent) } };
  const mr = req.messageRequest;
  switch (mr.case) {
    case "fileByFilename":
      return files(index.fileByName(mr.value));
    case "fileContainingSymbol":
      return files(index.fileContainingSymbol(mr.value));
    case "fileContainingExtension":
      return files(index.fileContainingExtension(mr.value.containingType, mr.value.extensionNumber));
    case "allExtensionNumbersOfType": {
      const numbers = index.extensionNumbers(mr.value);
      if (numbers === undefined) return notFound;
      return { case: "allExtensionNumbersResponse", value: { baseTypeName: mr.value, extensionNumber: numbers } };
    }
    case "listServices":
      return {
        case: "listServicesResponse",
        value: { service: [...serviceNames].sort().map((name) => ({ name })) },
      };
    default:
      throw new ConnectError("invalid MessageRequest: <nil>", Code.InvalidArgument);
  }
}

/** The bidi handler for one reflection version: one response per request, a fresh `sent` set per stream. */
export function reflectionHandler(
  index: DescriptorIndex,
  serviceNames: readonly string[],
  version: "v1" | "v1alpha",
): (requests: AsyncIterable<ServerReflectionRequest>) => AsyncIterable<ServerReflectionResponse> {
  const schema = version === "v1" ? ServerReflectionResponseSchema : ResponseSchemaV1alpha;
  return async function* (requests) {
    const sent = new Set<string>();
    for await (const req of requests) {
      const messageResponse = answer(index, serviceNames, req, sent);
      // The handler of each version receives that version's messages: the request echoes back as it is; v1 and
      // v1alpha have identical fields, only the type names differ.
      yield create(schema as typeof ServerReflectionResponseSchema, {
        validHost: req.host,
        originalRequest: req,
        messageResponse,
      });
    }
  };
}
