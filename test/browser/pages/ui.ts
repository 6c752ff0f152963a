/**
 * The little visible part of the test pages (what the screenshot shows): a title, a line per
 * event, and the frames. No framework: DOM calls only.
 */

const STYLE = `
  body { font: 14px/1.4 system-ui, sans-serif; margin: 16px; color: #1d2330; background: #f6f7f9; }
  h1 { font-size: 18px; margin: 0 0 8px; }
  .origin { color: #5b6474; font-family: ui-monospace, monospace; font-size: 12px; }
  iframe.app { width: 100%; height: 300px; border: 2px solid #3d6cf0; border-radius: 8px; background: #fff; }
  iframe.third { width: 100%; height: 44px; border: 1px dashed #c0392b; border-radius: 6px; }
  ol.log { font-family: ui-monospace, monospace; font-size: 12px; background: #fff; border: 1px solid #d9dde3;
           border-radius: 6px; padding: 8px 8px 8px 32px; margin: 8px 0; min-height: 80px; }
  .result { font-size: 28px; font-weight: 600; color: #1f7a3d; }
`;

/** Styles the page and writes its title and origin. */
export function page(title: string): void {
  const style = document.createElement("style");
  style.textContent = STYLE;
  document.head.append(style);
  const h1 = document.createElement("h1");
  h1.textContent = title;
  const origin = document.createElement("div");
  origin.className = "origin";
  origin.textContent = location.origin;
  document.body.append(h1, origin);
}

/** A list of event lines; returns the function that appends one. */
export function log(): (line: string) => void {
  const list = document.createElement("ol");
  list.className = "log";
  document.body.append(list);
  return (line) => {
    const item = document.createElement("li");
    item.textContent = line;
    list.append(item);
  };
}

/** A line whose text the page updates (the app's last result). */
export function field(className: string, text: string): (text: string) => void {
  const element = document.createElement("div");
  element.className = className;
  element.textContent = text;
  document.body.append(element);
  return (next) => (element.textContent = next);
}

/** An iframe of `src` appended to the body, not yet navigated (set `src` after connecting). */
export function frame(className: string, title: string): HTMLIFrameElement {
  const iframe = document.createElement("iframe");
  iframe.className = className;
  iframe.title = title;
  document.body.append(iframe);
  return iframe;
}

/** The query parameter `name` of this page's URL (the test passes the other origins' URLs). */
export function param(name: string): string {
  const value = new URLSearchParams(location.search).get(name);
  if (value === null) throw new Error(`missing ?${name}=`);
  return value;
}

/** A promise and its resolve. */
export function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the pages read of a tool result, whoever typed it. */
export interface ToolResultLike {
  readonly content?: ReadonlyArray<{ readonly type: string; readonly text?: string | undefined }> | undefined;
  readonly isError?: boolean | undefined;
}

/** The first text block of a tool result. */
export function firstText(result: ToolResultLike): string {
  const block = result.content?.find((item) => item.type === "text");
  return block?.text ?? "";
}
