// A number burnt into each video frame as a barcode, and read back by decoding: the frame number of a
// test pattern (clips: which frames a cut kept) or the capture time (live: glass-to-playlist). Plain
// CommonJS so the bench scripts (plain node) and the tests (TypeScript, through frame-barcode.d.ts) share it.
'use strict';
const { execFile } = require('node:child_process');

/**
 * An ffmpeg filtergraph piece: `input` with the value of the geq expression `value` (e.g. `N`, the
 * frame number, or `floor(T*1000)`, milliseconds) burnt along its top left as `bits` blocks of
 * `block`×`block` pixels, bit i the i-th block, white for 1 and black for 0, into `output`.
 */
function barcodeFilter({ input, output, value, bits, block }) {
  const bar = `${input.replace(/\W/g, '')}bar`;
  return (
    `${input}split[${bar}a][${bar}b];` +
    `[${bar}b]crop=${bits * block}:${block}:0:0,geq=lum='if(eq(mod(floor((${value})/pow(2,floor(X/${block}))),2),1),235,16)':cb=128:cr=128[${bar}];` +
    `[${bar}a][${bar}]overlay=0:0${output}`
  );
}

/** The values of a raw stream of `bits`-byte rows (each bar scaled down to one gray pixel per bit). */
function decodeBarcodes(raw, bits) {
  const values = [];
  for (let f = 0; f + bits <= raw.length; f += bits) {
    let value = 0;
    for (let i = 0; i < bits; i++) if (raw[f + i] > 128) value += 2 ** i;
    values.push(value);
  }
  return values;
}

/** The ffmpeg arguments that decode `input` and write each frame's bar as `bits` gray bytes to stdout. */
function barcodeReadArgs(input, { bits, block }) {
  return ['-v', 'error', '-i', input, '-vf', `crop=${bits * block}:${block}:0:0,scale=${bits}:1:flags=area,format=gray`, '-f', 'rawvideo', '-'];
}

/** The value burnt into every frame of `input` (a file or URL), in presentation order, read by decoding it with `ffmpeg`. */
function readBarcodes(ffmpeg, input, { bits, block }) {
  return new Promise((resolve, reject) => {
    execFile(ffmpeg, barcodeReadArgs(input, { bits, block }), { encoding: 'buffer', maxBuffer: 256 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`reading the barcodes of ${input} failed: ${err.message} ${stderr.toString().trim()}`));
      else resolve(decodeBarcodes(stdout, bits));
    });
  });
}

module.exports = { barcodeFilter, barcodeReadArgs, decodeBarcodes, readBarcodes };
