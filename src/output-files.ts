/** The files a build makes, as the pipeline's stages pass them on to the writer. */

/** Output files: path relative to the output folder → contents. */
export type OutputFiles = Map<string, string | Uint8Array>;
