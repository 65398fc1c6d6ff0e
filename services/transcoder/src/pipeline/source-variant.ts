/** The stream-copied rendition of a standard input (`assets/{id}/hls/source/`): the original quality, kept after the ladder. */
export const SOURCE_VARIANT = 'source';
