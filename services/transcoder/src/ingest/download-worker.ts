import { parentPort, workerData } from 'node:worker_threads';
import { DownloadError, downloadInput } from './download';
import type { DownloadRequest, DownloadThreadMessage } from './download-thread';

/** Thread entry of `downloadInThread`: one download, one answer, then the thread ends. */
const { url, file, options } = workerData as DownloadRequest;
const controller = new AbortController();
const port = parentPort!;
port.on('message', (message) => {
  if (message === 'abort') controller.abort(new Error('download aborted'));
});

const answer = (message: DownloadThreadMessage) => {
  port.postMessage(message);
  port.close();
};

downloadInput(url, file, { ...options, signal: controller.signal }).then(
  (result) => answer({ ok: true, result }),
  (err: unknown) => answer(err instanceof DownloadError ? { ok: false, reason: err.reason } : { ok: false, failure: (err as Error)?.message ?? String(err) }),
);
