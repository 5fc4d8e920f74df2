import { create, type DescFile, type MessageInitShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
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
