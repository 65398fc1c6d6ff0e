export interface BarcodeShape {
  /** How many bits (blocks) the bar has: values wrap at 2^bits. */
  bits: number;
  /** Side of each block in pixels: the bar is bits × block wide and block high, at the top left. */
  block: number;
}

/** A filtergraph piece burning the geq expression `value` (e.g. `N`, the frame number) into `input`, labelled `output`. */
export function barcodeFilter(options: BarcodeShape & { input: string; output: string; value: string }): string;
/** The values of a raw stream of `bits`-byte rows. */
export function decodeBarcodes(raw: Uint8Array, bits: number): number[];
/** ffmpeg arguments writing each decoded frame's bar as `bits` gray bytes to stdout. */
export function barcodeReadArgs(input: string, shape: BarcodeShape): string[];
/** The value burnt into every frame of `input`, in presentation order, read with `ffmpeg`. */
export function readBarcodes(ffmpeg: string, input: string, shape: BarcodeShape): Promise<number[]>;
