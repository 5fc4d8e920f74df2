import { type DescFile, toBinary } from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";

/**
 * The descriptor pool server reflection answers from (grpc-go uses the process-wide registry): the given files and
 * all their transitive dependencies, indexed by file name, by every fully-qualified symbol they declare (messages,
 * fields, oneofs, enums, enum values, services, methods, extensions) and by extension (extendee, number).
 */
export class DescriptorIndex {
  readonly #files = new Map<string, DescFile>();
  readonly #symbols = new Map<string, DescFile>();
  readonly #extensions = new Map<string, Map<number, DescFile>>();
  readonly #encoded = new Map<string, Uint8Array>();

  constructor(roots: readonly DescFile[]) {
    const queue = [...roots];
    while (queue.length > 0) {
      const f = queue.shift()!;
      if (this.#files.has(f.proto.name)) continue;
      this.#files.set(f.proto.name, f);
      this.#indexFile(f);
      queue.push(...f.dependencies);
    }
  }

  #indexFile(f: DescFile): void {
    const pkg = f.proto.package;
    const add = (name: string) => {
      if (!this.#symbols.has(name)) this.#symbols.set(name, f);
    };
    for (const t of nestedTypes(f)) {
      add(t.typeName);
      switch (t.kind) {
        case "message":
          for (const field of t.fields) add(`${t.typeName}.${field.name}`);
          for (const o of t.oneofs) add(`${t.typeName}.${o.name}`);
          break;
        case "enum": {
          const scope = t.parent?.typeName ?? pkg;
          for (const v of t.values) add(scope === "" ? v.name : `${scope}.${v.name}`);
          break;
        }
        case "service":
          for (const m of t.methods) add(`${t.typeName}.${m.name}`);
          break;
        case "extension": {
          const byNumber = this.#extensions.get(t.extendee.typeName) ?? new Map<number, DescFile>();
          byNumber.set(t.number, f);
          this.#extensions.set(t.extendee.typeName, byNumber);
          break;
        }
      }
    }
  }

  fileByName(name: string): DescFile | undefined {
    return this.#files.get(name);
  }

  fileContainingSymbol(symbol: string): DescFile | undefined {
    return this.#symbols.get(symbol);
  }

  fileContainingExtension(extendee: string, number: number): DescFile | undefined {
    return this.#extensions.get(extendee)?.get(number);
  }

  /** Extension numbers of a message type, ascending; undefined when the type is unknown and has none. */
  extensionNumbers(typeName: string): number[] | undefined {
    const numbers = [...(this.#extensions.get(typeName)?.keys() ?? [])].sort((a, b) => a - b);
    if (numbers.length === 0 && !this.#symbols.has(typeName)) return undefined;
    return numbers;
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
