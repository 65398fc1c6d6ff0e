// Direct-upload figures for `npm run bench`: throughput of a 2 GiB file through the upload URL (one
// PUT, and 32 MiB Content-Range chunks as UpChunk sends them) as a ratio to a plain copy of the same
// file into the store's folder, and the platform's resident memory while the bytes go through.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { ROOT, rssMiB } = require('./bench-support');

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;
const SOURCE = path.join(ROOT, '.cache', 'bench', 'upload-2gib.bin');

/** The 2 GiB file (random bytes, made once and cached: the upload path does not look inside). */
function prepareUploadSource() {
  if (fs.existsSync(SOURCE) && fs.statSync(SOURCE).size === 2 * GiB) return SOURCE;
  fs.mkdirSync(path.dirname(SOURCE), { recursive: true });
  console.log('generating a 2 GiB upload file (cached for later runs)…');
  execFileSync('head', ['-c', String(2 * GiB), '/dev/urandom'], { stdio: ['ignore', fs.openSync(`${SOURCE}.tmp`, 'w'), 'inherit'] });
  fs.renameSync(`${SOURCE}.tmp`, SOURCE);
  return SOURCE;
}

/** Samples the process's resident memory every 50 ms while `work` runs; returns the work's result, seconds and the peak. */
async function measured(pid, work) {
  // Each figure starts with no dirty pages of the one before being written back under it.
  execFileSync('sync');
  let peak = Math.round(rssMiB(pid));
  const timer = setInterval(() => (peak = Math.max(peak, Math.round(rssMiB(pid)))), 50);
  const t0 = performance.now();
  try {
    const result = await work();
    return { result, seconds: (performance.now() - t0) / 1000, peak };
  } finally {
    clearInterval(timer);
  }
}

/** One PUT whose body is bytes `start`..`end` of the file, streamed from disk. */
function putRange(url, file, start, end, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: 'PUT', headers: { 'content-length': end - start + 1, 'content-type': 'application/octet-stream', ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      },
    );
    req.on('error', reject);
    fs.createReadStream(file, { start, end, highWaterMark: MiB }).pipe(req);
  });
}

async function createUpload(json) {
  const res = await json('POST', '/video/v1/uploads', { cors_origin: '*' });
  if (res.status !== 201) throw new Error(`POST /video/v1/uploads answered ${res.status}`);
  return (await res.json()).data;
}

/** Waits until the asset made from the upload has left `preparing` (the transcoder must not compete with the next figure). */
async function settled(json, uploadId) {
  for (let i = 0; i < 2400; i++) {
    const upload = (await (await json('GET', `/video/v1/uploads/${uploadId}`)).json()).data;
    const asset = upload.asset_id ? (await (await json('GET', `/video/v1/assets/${upload.asset_id}`)).json()).data : undefined;
    if (upload.status === 'errored' || (asset && asset.status !== 'preparing')) return upload;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`the asset of upload ${uploadId} did not settle`);
}

async function benchUploads({ json, pid, dataDir }) {
  const file = prepareUploadSource();
  const size = fs.statSync(file).size;
  console.log(`\nDirect uploads (a ${(size / GiB).toFixed(0)} GiB file from local disk, filesystem store)`);

  const copyTarget = path.join(dataDir, 'objects', 'bench-plain-copy.bin');
  fs.mkdirSync(path.dirname(copyTarget), { recursive: true });
  // cp copies in the kernel (copy_file_range); dd moves the bytes through a process, as any upload must.
  const plain = await measured(pid, async () => execFileSync('cp', [file, copyTarget]));
  fs.rmSync(copyTarget);
  const streamed = await measured(pid, async () => execFileSync('dd', [`if=${file}`, `of=${copyTarget}`, 'bs=1M'], { stdio: 'ignore' }));
  fs.rmSync(copyTarget);
  console.log(
    `plain copy into the store folder: cp ${plain.seconds.toFixed(2)} s (${(size / MiB / plain.seconds).toFixed(0)} MiB/s), dd bs=1M ${streamed.seconds.toFixed(2)} s (${(size / MiB / streamed.seconds).toFixed(0)} MiB/s)`,
  );
  const ratios = (seconds) => `ratio to cp ${(seconds / plain.seconds).toFixed(2)}, to dd ${(seconds / streamed.seconds).toFixed(2)}`;

  const before = Math.round(rssMiB(pid));
  const single = await createUpload(json);
  const one = await measured(pid, () => putRange(single.url, file, 0, size - 1, {}));
  if (one.result !== 200) throw new Error(`single PUT answered ${one.result}`);
  console.log(
    `one PUT of the whole file            ${one.seconds.toFixed(2)} s  ${(size / MiB / one.seconds).toFixed(0)} MiB/s  ${ratios(one.seconds)}  platform RSS ${before} → peak ${one.peak} MiB`,
  );

  await settled(json, single.id);
  const chunked = await createUpload(json);
  const chunk = 32 * MiB;
  const beforeChunks = Math.round(rssMiB(pid));
  const many = await measured(pid, async () => {
    let last;
    for (let start = 0; start < size; start += chunk) {
      const end = Math.min(start + chunk, size) - 1;
      last = await putRange(chunked.url, file, start, end, { 'content-range': `bytes ${start}-${end}/${size}` });
      if (last !== (end === size - 1 ? 200 : 308)) throw new Error(`chunk ${start}-${end} answered ${last}`);
    }
    return last;
  });
  console.log(
    `32 MiB chunks (${Math.ceil(size / chunk)} PUTs, as UpChunk)    ${many.seconds.toFixed(2)} s  ${(size / MiB / many.seconds).toFixed(0)} MiB/s  ${ratios(many.seconds)}  platform RSS ${beforeChunks} → peak ${many.peak} MiB`,
  );
  await settled(json, chunked.id);
  for (const upload of [single, chunked]) {
    const assetId = (await (await json('GET', `/video/v1/uploads/${upload.id}`)).json()).data.asset_id;
    if (assetId) await json('DELETE', `/video/v1/assets/${assetId}`);
  }
}

module.exports = { benchUploads, prepareUploadSource };
