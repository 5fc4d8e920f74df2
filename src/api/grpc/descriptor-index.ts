import {
  createFileRegistry,
  type DescEnum,
  type DescExtension,
  type DescFile,
  type DescMessage,
  type DescService,
  type FileRegistry,
  toBinary,
} from "@bufbuild/protobuf";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

/**
 * The descriptor pool server reflection answers from (grpc-go uses the process-wide registry): a protobuf-es
 * `FileRegistry` of the given files and all their transitive dependencies. The registry resolves files by name,
 * messages, enums, services and extensions by fully-qualified name, and extensions by (extendee, number). What it
 * does not resolve, and grpc-go's `file_containing_symbol` does, is indexed here from its descriptors: the members
 * of a type (fields, oneofs, enum values in their C++ scope, methods).
 */
export class DescriptorIndex {
  readonly #registry: FileRegistry;
  readonly #members = new Map<string, DescFile>();
  readonly #encoded = new Map<string, Uint8Array>();

  constructor(roots: readonly DescFile[]) {
    this.#registry = createFileRegistry(...roots.map(registryOf));
    for (const t of this.#registry) {
      for (const name of memberNames(t)) if (!this.#members.has(name)) this.#members.set(name, t.file);
    }
  }

  fileByName(name: string): DescFile | undefined {
    return this.#registry.getFile(name);
  }

  fileContainingSymbol(symbol: string): DescFile | undefined {
    return this.#registry.get(symbol)?.file ?? this.#members.get(symbol);
  }

  fileContainingExtension(extendee: string, number: number): DescFile | undefined {
    const message = this.#registry.getMessage(extendee);
    return message === undefined ? undefined : this.#registry.getExtensionFor(message, number)?.file;
  }

  /** Extension numbers of a message type, ascending; undefined when the type is unknown and has none. */
  extensionNumbers(typeName: string): number[] | undefined {
    const numbers = new Set<number>();
    for (const t of this.#registry)
      if (t.kind === "extension" && t.extendee.typeName === typeName) numbers.add(t.number);
    if (numbers.size === 0 && this.fileContainingSymbol(typeName) === undefined) return undefined;
    return [...numbers].sort((a, b) => a - b);
  }

  /** The serialized FileDescriptorProto of a file. */
  encode(f: DescFile): Uint8Array {
    let b = this.#encoded.get(f.proto.name);
    if (b === undefined) {
      b = toBinary(FileDescriptorProtoSchema, f.proto);
      this.#encoded.set(f.proto.name, b);
    }
    return b;
  }

  /**
   * grpc-go `fileDescWithDependencies`: the file itself (always) and then, breadth-first, every transitive
   * dependency not yet sent on this stream; `sent` is updated.
   */
  withDependencies(root: DescFile, sent: Set<string>): Uint8Array[] {
    const out: Uint8Array[] = [];
    const queue: DescFile[] = [root];
    while (queue.length > 0) {
      const f = queue.shift()!;
      if (out.length === 0 || !sent.has(f.proto.name)) {
        sent.add(f.proto.name);
        out.push(this.encode(f));
      }
      queue.push(...f.dependencies);
    }
    return out;
  }
}

/** A registry of one file and its transitive dependencies (protobuf-es resolves the imports and adds them). */
function registryOf(file: DescFile): FileRegistry {
  return createFileRegistry(file.proto, (name) => file.dependencies.find((d) => d.proto.name === name));
}

/** The symbols a type declares below its own name: fields and oneofs, enum values (in the enum's scope), methods. */
function memberNames(t: DescMessage | DescEnum | DescExtension | DescService): string[] {
  switch (t.kind) {
    case "message":
      return [...t.fields, ...t.oneofs].map((m) => `${t.typeName}.${m.name}`);
    case "enum": {
      const scope = t.parent?.typeName ?? t.file.proto.package;
      return t.values.map((v) => (scope === "" ? v.name : `${scope}.${v.name}`));
    }
    case "service":
      return t.methods.map((m) => `${t.typeName}.${m.name}`);
    case "extension":
      return [];
  }
}
