import {
  clone,
  create,
  createFileRegistry,
  type DescFile,
  type DescMessage,
  type DescService,
  type FileRegistry,
  fromBinary,
  getExtension,
  hasExtension,
  type Message,
  setExtension,
  toBinary,
} from "@bufbuild/protobuf";
import {
  type Any,
  AnySchema,
  type DescriptorProto,
  type FieldDescriptorProto,
  type FileDescriptorProto,
  FileDescriptorProtoSchema,
  FileDescriptorSetSchema,
} from "@bufbuild/protobuf/wkt";
import { assert } from "../core/assert.js";
import { err, ok } from "../core/errors.js";
import { type Namespace, type NamespaceNames, namesOf } from "../core/namespace.js";
import { file_chain_auth_v1beta1_query } from "../gen/chain/auth/v1beta1/query_pb.js";
import { file_chain_bank_v1beta1_query } from "../gen/chain/bank/v1beta1/query_pb.js";
import { file_chain_base_tendermint_v1beta1_query } from "../gen/chain/base/tendermint/v1beta1/query_pb.js";
import { file_chain_gov_v1_query } from "../gen/chain/gov/v1/query_pb.js";
import { file_chain_tx_v1beta1_service } from "../gen/chain/tx/v1beta1/service_pb.js";
import { file_chain_upgrade_v1beta1_query } from "../gen/chain/upgrade/v1beta1/query_pb.js";
import { http } from "../gen/google/api/annotations_pb.js";
import type { HttpRule } from "../gen/google/api/http_pb.js";
import type { BoundService, QueryBackend, UnaryHandler } from "./backend.js";
import { ANY_TYPE_FILES } from "./grpc/reflection.js";
import type { GatewayJsonOptions } from "./json.js";

/**
 * The wire namespace at the API edge (docs/node-api.md §0): the simulator core speaks `chain` names; a node served in
 * the `cosmos` namespace speaks the reference's on every wire (gRPC services and reflection, REST paths and Swagger,
 * `abci_query` paths, type URLs inside Any). There is one set of generated code: the `cosmos` descriptors are the
 * generated `chain` ones renamed (`namesOf(ns).fromChain`: packages, files, type references, `google.api.http`
 * paths) into a second registry built with `createFileRegistry`. Messages cross the edge as bytes: a request is
 * re-read with the `chain` schema, a response with the wire schema (same field numbers), and every Any whose type
 * URL names the other namespace is renamed, its payload too, at every depth.
 */

/** Every file the API serves or an Any in a response can name, with their dependencies. */
const ROOT_FILES: readonly DescFile[] = [
  file_chain_upgrade_v1beta1_query,
  file_chain_gov_v1_query,
  file_chain_bank_v1beta1_query,
  file_chain_base_tendermint_v1beta1_query,
  file_chain_auth_v1beta1_query,
  file_chain_tx_v1beta1_service,
  ...ANY_TYPE_FILES,
];

/** A bound on nested messages walked for Any values (the reference's interface registry recursion limit is 100). */
const MAX_DEPTH = 100;

/** The files and their transitive dependencies, every file after its dependencies (what a FileDescriptorSet needs). */
function closure(roots: readonly DescFile[]): DescFile[] {
  const seen = new Set<string>();
  const out: DescFile[] = [];
  const visit = (f: DescFile, depth: number): void => {
    assert(depth < MAX_DEPTH, "proto import chain over the bound");
    if (seen.has(f.proto.name)) return;
    seen.add(f.proto.name);
    for (const d of f.dependencies) visit(d, depth + 1);
    out.push(f);
  };
  for (const f of roots) visit(f, 0);
  return out;
}

function renameRule(rule: HttpRule, n: NamespaceNames): void {
  const p = rule.pattern;
  if (p.case !== undefined && p.case !== "custom") p.value = n.fromChain(p.value);
  for (const b of rule.additionalBindings) renameRule(b, n);
}

/** Only names that change are written: an unset proto2 field (`type_name` of a scalar) stays unset. */
function renameField(f: FieldDescriptorProto, n: NamespaceNames): void {
  if (f.typeName !== n.fromChain(f.typeName)) f.typeName = n.fromChain(f.typeName);
  if (f.extendee !== n.fromChain(f.extendee)) f.extendee = n.fromChain(f.extendee);
}

function renameMessage(m: DescriptorProto, n: NamespaceNames): void {
  for (const f of m.field) renameField(f, n);
  for (const f of m.extension) renameField(f, n);
  for (const nested of m.nestedType) renameMessage(nested, n);
}

/** A FileDescriptorProto with every `chain` name in it given in namespace `n`. */
function renameFile(proto: FileDescriptorProto, n: NamespaceNames): FileDescriptorProto {
  const p = clone(FileDescriptorProtoSchema, proto);
  p.name = n.fromChain(p.name);
  p.package = n.fromChain(p.package);
  p.dependency = p.dependency.map((d) => n.fromChain(d));
  for (const m of p.messageType) renameMessage(m, n);
  for (const f of p.extension) renameField(f, n);
  for (const s of p.service) {
    for (const m of s.method) {
      m.inputType = n.fromChain(m.inputType);
      m.outputType = n.fromChain(m.outputType);
      if (m.options !== undefined && hasExtension(m.options, http)) {
        const rule = getExtension(m.options, http);
        renameRule(rule, n);
        setExtension(m.options, http, rule);
      }
    }
  }
  return p;
}

const registries = new Map<Namespace, FileRegistry>();

/** The registry of a namespace's descriptors: the generated files' descriptors, renamed for `cosmos`. */
export function wireRegistry(ns: Namespace): FileRegistry {
  let r = registries.get(ns);
  if (r === undefined) {
    const files = closure(ROOT_FILES);
    const n = namesOf(ns);
    r = createFileRegistry(create(FileDescriptorSetSchema, { file: files.map((f) => renameFile(f.proto, n)) }));
    registries.set(ns, r);
  }
  return r;
}

/** The files server reflection indexes besides the services' own: every file an Any in a response can name. */
export function wireAnyFiles(ns: Namespace): DescFile[] {
  if (ns === "chain") return [...ANY_TYPE_FILES];
  const reg = wireRegistry(ns);
  const n = namesOf(ns);
  return ANY_TYPE_FILES.map((f) => reg.getFile(n.fromChain(f.proto.name))!);
}

/** A generated `chain` service in namespace `ns`. */
export function wireService(service: DescService, ns: Namespace): DescService {
  if (ns === "chain") return service;
  const s = wireRegistry(ns).getService(namesOf(ns).fromChain(service.typeName));
  assert(s !== undefined, `service ${service.typeName} has no ${ns} descriptor`);
  return s;
}

/** Renames, in place, the Any values under `m` (of type `desc`) whose type URL is in `from` to `to`, at every depth. */
function renameAnys(desc: DescMessage, m: Message, from: Namespace, to: Namespace, depth = 0): void {
  assert(depth < MAX_DEPTH, "message nesting over the Any walk's bound");
  if (desc.typeName === AnySchema.typeName) {
    renameAny(m as Any, from, to, depth);
    return;
  }
  const record = m as unknown as Record<string, unknown>;
  for (const f of desc.fields) {
    let v: unknown = record[f.localName];
    if (f.oneof !== undefined) {
      const o = record[f.oneof.localName] as { case?: string; value?: unknown };
      if (o.case !== f.localName) continue;
      v = o.value;
    }
    if (v === undefined) continue;
    if (f.fieldKind === "message") renameAnys(f.message, v as Message, from, to, depth + 1);
    else if (f.fieldKind === "list" && f.listKind === "message")
      for (const x of v as Message[]) renameAnys(f.message, x, from, to, depth + 1);
    else if (f.fieldKind === "map" && f.mapKind === "message")
      for (const x of Object.values(v as Record<string, Message>)) renameAnys(f.message, x, from, to, depth + 1);
  }
}

function renameAny(a: Any, from: Namespace, to: Namespace, depth: number): void {
  const name = namesOf(from).typeName(a.typeUrl);
  if (name === undefined) return;
  const desc = wireRegistry(from).getMessage(namesOf(from).protoName(name));
  a.typeUrl = namesOf(to).typeUrl(name);
  if (desc === undefined) return;
  try {
    const inner = fromBinary(desc, a.value);
    renameAnys(desc, inner, from, to, depth + 1);
    a.value = toBinary(desc, inner);
  } catch {
    // A payload that does not decode is passed on as it is; its reader reports it.
  }
}

/** A `chain` Any in namespace `ns`: its type URL and those inside its payload, at every depth. */
export function anyToWire(a: Any, ns: Namespace): Any {
  if (ns === "chain") return a;
  const out = clone(AnySchema, a);
  renameAny(out, "chain", ns, 0);
  return out;
}

/** A message of one schema re-read as another with the same fields, its Any values renamed from `from` to `to`. */
function convert(bytesOf: DescMessage, readAs: DescMessage, m: Message, from: Namespace, to: Namespace): Message {
  const out = fromBinary(readAs, toBinary(bytesOf, m));
  renameAnys(readAs, out, from, to);
  return out;
}

/** A bound service in namespace `ns`: the wire's service descriptor, the handlers reading and answering `chain`. */
function wireBound(bound: BoundService, ns: Namespace): BoundService {
  const service = wireService(bound.service, ns);
  const handlers = new Map<string, UnaryHandler>();
  for (const [name, handler] of bound.handlers) {
    const chainMethod = bound.service.methods.find((m) => m.name === name)!;
    const wireMethod = service.methods.find((m) => m.name === name)!;
    handlers.set(name, (ctx, request) => {
      const r = handler(ctx, convert(wireMethod.input, chainMethod.input, request, ns, "chain"));
      return r.ok ? ok(convert(chainMethod.output, wireMethod.output, r.value, "chain", ns)) : err(r.error);
    });
  }
  return { service, handlers };
}

/** The backend as served in namespace `ns` (the backend itself for `chain`). */
export function wireBackend(backend: QueryBackend, ns: Namespace): QueryBackend {
  if (ns === "chain") return backend;
  return {
    appName: backend.appName,
    latestHeight: () => backend.latestHeight(),
    earliestHeight: () => backend.earliestHeight(),
    stateAt: (h) => backend.stateAt(h),
    services: backend.services.map((b) => wireBound(b, ns)),
    namespace: ns,
  };
}

/** Gateway JSON options for namespace `ns`: Any payloads resolved by the wire's registry, field names renamed. */
export function wireJson(base: GatewayJsonOptions, ns: Namespace): GatewayJsonOptions {
  if (ns === "chain") return base;
  const n = namesOf(ns);
  return {
    registry: wireRegistry(ns),
    nonNullable: base.nonNullable === undefined ? undefined : new Set([...base.nonNullable].map((k) => n.fromChain(k))),
  };
}
