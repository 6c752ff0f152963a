export declare const SHARED_SCHEMAS: string;
export declare const TEST_CACHE_DIR: string;
export declare const TEST_OUT_DIR: string;
export declare const TEST_TASKS_OUT_DIR: string;
export declare const TEST_SKILLS_OUT_DIR: string;
export declare function prepare(): Promise<void>;
export declare const TEST_UNKNOWN_OUT_DIR: string;
export declare const UNKNOWN_LABELS: Readonly<Record<string, string>>;
