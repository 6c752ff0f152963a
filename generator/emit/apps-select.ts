/**
 * Which selected extensions are generated beside the revisions (apps), without loading the
 * emitters: generate.ts and `catalog` import this; emit/apps-output.ts (which loads the templates
 * and the type emitter) is imported only by a run that has one.
 */
import { extensionInfo, type Manifest } from "../load/schema-source.js";

/** The output folder of the apps protocol, beside the revisions. */
export const APPS_DIR = "apps";

/** The selected extensions that are generated beside the revisions (apps), each with its base revision. */
export function protocolExtensions(extensions: readonly string[], manifest: Manifest): Array<{ readonly id: string; readonly base: string }> {
  return [...new Set(extensions)]
    .map((id) => extensionInfo(manifest, id))
    .filter((info) => info.output === "apps")
    .map((info) => ({ id: info.id, base: info.revisions[0]! }));
}
