/** Where `npm start` runs the compiled server from. */
export const SERVER_OUT_DIR: string;
/** Compiles the server into `outDir` (default {@link SERVER_OUT_DIR}). */
export function buildServer(outDir?: string): Promise<void>;
