export declare const HERE: string;
export declare const ROOT: string;
export declare const MODULES: string;
export declare const NODE22: string;
export declare function ensureInstalled(): void;
export declare const pinnedVersion: (spec: string) => string;
export declare const dependencies: () => Record<string, string>;
