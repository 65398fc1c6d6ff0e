const Mux = require('@mux/mux-node').default;
(async () => {
  const mux = new Mux({ tokenId: 'smoke', tokenSecret: 'smoke-secret', baseURL: 'http://127.0.0.1:18280' });
  const created = await mux.video.assets.create({ inputs: [{ url: 'http://127.0.0.1:18299/clip.mp4' }], playback_policies: ['public'], test: true });
  let a; const t = Date.now();
  for (let i = 0; i < 200; i++) { a = await mux.video.assets.retrieve(created.id); if (a.status !== 'preparing') break; await new Promise(r => setTimeout(r, 100)); }
  console.log('settled', Date.now() - t, 'ms', JSON.stringify(a));
  console.log('input-info', JSON.stringify(await mux.video.assets.retrieveInputInfo(created.id)));
  const ids = []; for await (const x of mux.video.assets.list({ limit: 1 })) ids.push(x.id);
  console.log('iterated', ids.length);
  console.log('lookup', JSON.stringify(await mux.video.playbackIds.retrieve(a.playback_ids[0].id)));
  const m = await fetch(`http://127.0.0.1:18281/${a.playback_ids[0].id}.m3u8`); console.log('master', m.status);
  await mux.video.assets.delete(created.id);
  const m2 = await fetch(`http://127.0.0.1:18281/${a.playback_ids[0].id}.m3u8`); console.log('master after delete', m2.status);
})().catch((e) => { console.error('FAILED', e.status, e.message); process.exit(1); });
