// Type-level tests of the generated 2025-11-25 catalog and types. The test run copies this file
// into the generated out/2025-11-25/ folder and compiles it: every `@ts-expect-error` must
// still be an error, and every other line must compile.
import type * as G from "./index.js";
import { METHODS } from "./catalog.js";

type Equal<A, B> = (<X>() => X extends A ? 1 : 2) extends <X>() => X extends B ? 1 : 2 ? true : false;
const assert = <T extends true>(): T | undefined => undefined;

// Method → params and result, per direction.
assert<Equal<G.ClientRequestMap["tools/call"]["result"], G.CallToolResult>>();
assert<Equal<G.ClientRequestMap["tools/call"]["params"], G.CallToolRequestParams>>();
assert<Equal<G.ClientRequestMap["ping"]["result"], G.EmptyResult>>();
assert<Equal<G.ServerRequestMap["sampling/createMessage"]["result"], G.CreateMessageResult>>();
assert<Equal<G.ClientNotificationMap["notifications/cancelled"]["params"], G.CancelledNotificationParams>>();
assert<Equal<G.ClientRequestMap["tools/list"]["paramsRequired"], false>>();

// Direction is part of the type: the server does not send tools/call, the client does not send sampling.
// @ts-expect-error tools/call is not a server request
export type NoServerToolsCall = G.ServerRequestMap["tools/call"];
// @ts-expect-error sampling/createMessage is not a client request
export type NoClientSampling = G.ClientRequestMap["sampling/createMessage"];
// @ts-expect-error no such method
export type NoSuchMethod = G.ClientRequestMethod & "tools/cal" extends never ? G.ClientRequestMap["tools/cal"] : never;

// The catalog data is literal-typed.
const initialize = METHODS.find((m) => m.method === "initialize");
export const initializeIsUncancellable: false | undefined = initialize?.cancellable;
// @ts-expect-error a notification's result is null
export const notificationResult: string = METHODS.find((m) => m.kind === "notification")!.result;

// Misspelt properties of object literals are compile errors; schema-allowed extras are not.
export const ok: G.CallToolRequestParams = { name: "echo", arguments: { anything: 1 } };
// @ts-expect-error "nmae" is not a property of CallToolRequestParams
export const typo: G.CallToolRequestParams = { nmae: "echo" };
