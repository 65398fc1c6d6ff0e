// The page scripts/testing/capture-beacons.js opens: hls.js and mux-embed (window.Hls, window.mux) and two
// scripted views. `capture.playbackView(src, domain)` plays on rendition 0, forces rendition 1 (whose
// slow segment stalls the player), seeks, pauses, resumes and destroys the monitor (viewend);
// `capture.errorView(src, domain, envKey)` plays a source whose master is missing, then destroys it.
'use strict';

const pageHtml = `<!doctype html>
<html><head><meta charset="utf-8"><title>mux-embed capture</title>
<script src="/hls.js"></script><script src="/mux.js"></script></head>
<body><script>
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const once = (target, name) => new Promise((r) => (target.on ? target.once(name, r) : target.addEventListener(name, r, { once: true })));

function player(src, domain, data) {
  const video = document.createElement('video');
  video.muted = true;
  video.width = 640;
  document.body.append(video);
  const hls = new Hls({ startLevel: 0, capLevelToPlayerSize: false });
  mux.monitor(video, {
    debug: false,
    hlsjs: hls,
    Hls,
    beaconCollectionDomain: domain,
    data: { player_name: 'capture page', player_init_time: mux.utils.now(), player_version: '1.0.0', ...data },
  });
  hls.loadSource(src);
  hls.attachMedia(video);
  return { video, hls };
}

window.capture = {
  async playbackView(src, domain) {
    const { video, hls } = player(src, domain, {
      video_title: 'Captured test source',
      video_stream_type: 'on-demand',
      viewer_user_id: 'capture-viewer-1',
      custom_1: 'custom one',
      experiment_name: 'capture',
    });
    await once(hls, Hls.Events.MANIFEST_PARSED);
    hls.currentLevel = 0;
    await video.play();
    await sleep(5000);
    console.log('switching to rendition 1 at ' + video.currentTime.toFixed(1));
    hls.currentLevel = 1;
    await sleep(9000);
    console.log('seeking to 20 s from ' + video.currentTime.toFixed(1));
    video.currentTime = 20;
    await once(video, 'seeked');
    await sleep(3000);
    video.pause();
    await sleep(3000);
    await video.play();
    await sleep(3000);
    console.log('destroying at ' + video.currentTime.toFixed(1));
    video.mux.destroy();
    hls.destroy();
  },

  async errorView(src, domain, envKey) {
    const { video, hls } = player(src, domain, { env_key: envKey, video_title: 'Broken source', video_id: 'broken-video-1' });
    video.play().catch(() => {});
    await new Promise((resolve) => hls.on(Hls.Events.ERROR, (_event, data) => data.fatal && resolve()));
    await sleep(1000);
    video.mux.destroy();
    hls.destroy();
  },
};
</script></body></html>`;

module.exports = { pageHtml };
