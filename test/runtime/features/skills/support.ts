/**
 * What the skills tests share: a skills directory (nested paths, a dynamic skill, a binary file),
 * and a generated 2026-07-28 McpServer with the Skills extension (test/generated-skills) serving
 * a SkillCatalog, connected in memory to the generated McpClient, with the client's outgoing
 * requests recorded on the wire.
 */
import { createHash } from "node:crypto";
import * as R from "../../../generated-skills/2026-07-28/index.js";
import type { Transport } from "../../../generated-skills/2026-07-28/index.js";
import { TapTransport } from "../../../helpers/harness.js";

export { R };

export const PDF_SKILL = `---
name: pdf-processing
description: Extract, fill, and assemble PDF documents
license: Apache-2.0
metadata:
  version: "2.1.0"
  owner: docs-team
tags: [pdf, forms]
---

# PDF processing

Read references/FORMS.md first.
`;

export const FILES: Readonly<Record<string, string | Uint8Array>> = {
  "pdf-processing/SKILL.md": PDF_SKILL,
  "pdf-processing/references/FORMS.md": "# Forms\n\nFill every required field.\n",
  "pdf-processing/templates/invoice.md": "# Invoice\n",
  "pdf-processing/templates/regional/eu-invoice.md": "# EU invoice\n",
  "pdf-processing/assets/logo.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0xfe, 0x00, 0x01]),
  "acme/billing/refunds/SKILL.md": "---\nname: refunds\ndescription: Process refunds\n---\n# Refunds\n",
  "acme/billing/refunds/examples/email.md": "Dear customer,\n",
  "reports/daily/SKILL.md": "---\nname: daily\ndescription: >-\n  Today's report\n  from live data\n---\n# Daily\n",
};

/** sha256:{hex} computed here, independently of the runtime. */
export const digestOf = (content: string | Uint8Array): string => `sha256:${createHash("sha256").update(content).digest("hex")}`;
export const sizeOf = (content: string | Uint8Array): number => (typeof content === "string" ? Buffer.byteLength(content) : content.byteLength);

type Request = { method: string; params?: { uri?: string } };

/**
 * A connected pair: `listed` answers skills/list and skills/get, `served` answers resources/read
 * (the same catalog unless a test serves other content than it lists, as a tampering server would).
 */
export async function pair(listed: R.SkillCatalog, served: R.SkillCatalog = listed) {
  const [a, b] = R.createInMemoryTransportPair();
  const clientWire = new TapTransport(a as never);
  const server = new R.McpServer({
    logger: null,
    capabilities: listed.declare({}),
    resultDefaults: { ttlMs: 0, cacheScope: "private" },
    handlers: { ...listed.handlers(), "resources/read": (params) => served.read(params.uri) as never },
  });
  const client = new R.McpClient({ logger: null, clientInfo: { name: "skills-test", version: "1.0.0" } });
  await server.connect(b as unknown as Transport);
  await client.connect(clientWire as unknown as Transport, { initialize: false });
  const reads = () => clientWire.sent.filter((m) => "method" in m && m.method === "resources/read" && "id" in m).map((m) => (m as Request).params?.uri);
  return { client, server, reads, close: () => Promise.all([client.close(), server.close()]) };
}
