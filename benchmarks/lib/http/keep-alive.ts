// The load process's HTTP/1.1 client: one kept-alive TCP connection, one request at a time, the
// request written as preformatted bytes and the response read by a minimal parser (status line,
// Content-Type, then a Content-Length or chunked body). It costs the load process a third or less
// of the CPU per request of node:http's own client, and a twentieth of fetch's, so that even the
// raw floor is measured with its server busy rather than waiting for its client (docs/benchmarks.md,
// Against Node's floor). Every server of the bench answers a POST with one of those two framings.
import { connect, type Socket } from "node:net";

export interface Reply {
  readonly status: number;
  /** The Content-Type header ("" without one). */
  readonly contentType: string;
  /** The body, decoded as UTF-8 (a chunked body's chunks joined). */
  readonly body: string;
}

const HEAD_END = Buffer.from("\r\n\r\n");
const CRLF = Buffer.from("\r\n");
const EMPTY = Buffer.alloc(0);

/** A header's value in a lower-cased response head ("" without it). */
function header(head: string, name: string): string {
  const at = head.indexOf(`\r\n${name}:`);
  if (at < 0) return "";
  const start = at + name.length + 3;
  const end = head.indexOf("\r\n", start);
  return head.slice(start, end < 0 ? undefined : end).trim();
}

/** The chunked body that starts at `from`: its bytes and where it ends, or undefined while incomplete. */
function chunked(buffer: Buffer, from: number): { readonly body: Buffer; readonly end: number } | undefined {
  const parts: Buffer[] = [];
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd < 0) return undefined;
    const size = parseInt(buffer.toString("latin1", at, lineEnd), 16);
    if (Number.isNaN(size)) throw new Error(`bad chunk size line: ${buffer.toString("latin1", at, lineEnd)}`);
    if (size === 0) {
      // No trailers from any server here: the last chunk is followed by an empty line.
      if (buffer.length < lineEnd + 4) return undefined;
      return { body: Buffer.concat(parts), end: lineEnd + 4 };
    }
    const next = lineEnd + 2 + size + 2;
    if (buffer.length < next) return undefined;
    parts.push(buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = next;
  }
}

/** The request's bytes as one string: `head` (request line and headers, no Content-Length) and a body. */
export function formatRequest(head: string, body: string): string {
  return `${head}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** The request line and headers of a request to `url` (with Host), for formatRequest. */
export function requestHead(method: string, url: URL, headers: Readonly<Record<string, string>>): string {
  const lines = [`${method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n`;
}

export class KeepAliveConnection {
  #buffer: Buffer = EMPTY;
  #waiting: { readonly resolve: (reply: Reply) => void; readonly reject: (error: Error) => void } | undefined;

  private constructor(readonly socket: Socket) {
    socket.setNoDelay(true);
    socket.on("data", (chunk: Buffer) => this.#received(chunk));
    const fail = (error: Error): void => {
      const waiting = this.#waiting;
      this.#waiting = undefined;
      waiting?.reject(error);
    };
    socket.on("error", fail);
    socket.on("close", () => fail(new Error("the server closed the connection")));
  }

  static open(url: URL): Promise<KeepAliveConnection> {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.off("error", reject);
        resolve(new KeepAliveConnection(socket));
      });
      socket.once("error", reject);
    });
  }

  /** Writes one request (formatRequest) and resolves with its response; one at a time. */
  send(request: string): Promise<Reply> {
    if (this.#waiting !== undefined) throw new Error("one request at a time on a connection");
    return new Promise((resolve, reject) => {
      this.#waiting = { resolve, reject };
      this.socket.write(request);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  #received(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    let reply: Reply | undefined;
    try {
      reply = this.#parse();
    } catch (error) {
      this.#waiting?.reject(error as Error);
      this.#waiting = undefined;
      this.socket.destroy();
      return;
    }
    if (reply === undefined) return;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) throw new Error(`an answer nobody asked for: ${reply.status} ${reply.body.slice(0, 200)}`);
    waiting.resolve(reply);
  }

  /** The first complete response in the buffer (removed from it), or undefined while incomplete. */
  #parse(): Reply | undefined {
    const buffer = this.#buffer;
    const headEnd = buffer.indexOf(HEAD_END);
    if (headEnd < 0) return undefined;
    const head = buffer.toString("latin1", 0, headEnd).toLowerCase();
    const status = Number(head.slice(9, 12));
    const contentType = header(head, "content-type");
    const bodyStart = headEnd + 4;
    const length = header(head, "content-length");
    let body: Buffer;
    let end: number;
    if (length !== "") {
      end = bodyStart + Number(length);
      if (buffer.length < end) return undefined;
      body = buffer.subarray(bodyStart, end);
    } else if (header(head, "transfer-encoding") === "chunked") {
      const read = chunked(buffer, bodyStart);
      if (read === undefined) return undefined;
      ({ body, end } = read);
    } else if (status === 204 || status === 304 || (status >= 100 && status < 200)) {
      body = EMPTY;
      end = bodyStart;
    } else {
      throw new Error(`a response with neither Content-Length nor chunked framing: ${head.slice(0, 200)}`);
    }
    this.#buffer = end === buffer.length ? EMPTY : buffer.subarray(end);
    return { status, contentType, body: body.toString("utf8") };
  }
}
