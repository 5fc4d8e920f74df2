import net from "node:net";

/** A raw HTTP/1.1 exchange for tests: any request target and header bytes, header names exactly as sent on the wire. */
export interface RawResponse {
  readonly status: number;
  /** Header lines in wire order, names with their wire casing. */
  readonly headers: readonly (readonly [string, string])[];
  readonly body: string;
}

export interface RawRequest {
  readonly method?: string;
  readonly target: string;
  readonly headers?: readonly (readonly [string, string])[];
  readonly body?: string;
}

/** The value of a response header (case-insensitive), or undefined. */
export const header = (r: RawResponse, name: string): string | undefined =>
  r.headers.find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

/** Header names as sent, excluding node's transport headers (Date, Connection, Keep-Alive, Content-Length, ...). */
export const headerNames = (r: RawResponse): string[] =>
  r.headers
    .map(([k]) => k)
    .filter(
      (k) => !["date", "connection", "keep-alive", "content-length", "transfer-encoding"].includes(k.toLowerCase()),
    );

function parse(raw: Buffer): RawResponse {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const head = end < 0 ? text : text.slice(0, end);
  let body = end < 0 ? "" : text.slice(end + 4);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers = lines.map((l) => {
    const i = l.indexOf(":");
    return [l.slice(0, i), l.slice(i + 1).trim()] as const;
  });
  const te = headers.find(([k]) => k.toLowerCase() === "transfer-encoding")?.[1];
  if (te === "chunked") {
    let out = "";
    let rest = body;
    for (;;) {
      const nl = rest.indexOf("\r\n");
      const size = Number.parseInt(rest.slice(0, nl), 16);
      if (!(size > 0)) break;
      out += rest.slice(nl + 2, nl + 2 + size);
      rest = rest.slice(nl + 2 + size + 2);
    }
    body = out;
  }
  return { status, headers, body: Buffer.from(body, "latin1").toString("utf8") };
}

/** Sends one request on a fresh connection (`Connection: close`) and reads the whole response. */
export function rawRequest(port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (c) => chunks.push(c));
    socket.on("error", reject);
    socket.on("close", () => resolve(parse(Buffer.concat(chunks))));
    const headers = [["Host", "127.0.0.1"], ...(req.headers ?? []), ["Connection", "close"]];
    if (req.body !== undefined) headers.push(["Content-Length", String(Buffer.byteLength(req.body, "latin1"))]);
    const head = `${req.method ?? "GET"} ${req.target} HTTP/1.1\r\n${headers.map(([k, v]) => `${k}: ${v}\r\n`).join("")}\r\n`;
    socket.write(Buffer.from(head + (req.body ?? ""), "latin1"));
  });
}
