/* global window, document, AudioContext, MediaStream, Image */
// A test participant, added as a module to a page of the realtime server's origin (the page of
// /spaces/client.js): realtime-server.int-spec.ts, e2e/support/space-participants.ts and
// scripts/bench-spaces.js load this text, with the Chromium flags of ./chromium-args.json.
// It publishes a solid-colour canvas and a tone (silence when off), and has colour probes.
import { joinSpace } from '/spaces/client.js';

/**
 * Joins with `token`, publishing a `width`×`height` canvas of `colour` at 15 fps and a 1 kHz tone (silence unless
 * `tone`). `movingSquare` adds a black square sliding along the top (a picture that changes, as a camera's does); it
 * stays clear of the centre that `sampleVideos` reads. A refused join rejects, and `window.closeEvent` is the close's
 * `{ code, reason }` (4401 for a refused token).
 */
window.startParticipant = async ({ token, colour, tone, width, height = 90, movingSquare = false }) => {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const context = canvas.getContext('2d');
  const side = Math.round((height * 2) / 9);
  let x = 0;
  // captureStream only emits frames for a canvas that is painted.
  setInterval(() => {
    context.fillStyle = `rgb(${colour.join(',')})`;
    context.fillRect(0, 0, width, height);
    if (!movingSquare) return;
    context.fillStyle = '#000';
    context.fillRect((x = (x + 8) % (width - side)), Math.round(height / 18), side, side);
  }, 66);
  const audio = new AudioContext();
  const oscillator = audio.createOscillator();
  const gain = audio.createGain();
  const destination = audio.createMediaStreamDestination();
  oscillator.frequency.value = 1000;
  gain.gain.value = tone ? 0.5 : 0;
  oscillator.connect(gain).connect(destination);
  oscillator.start();
  window.setTone = (on) => (gain.gain.value = on ? 0.5 : 0);
  window.videos = {};
  window.speakers = [];
  window.participantEvents = [];
  window.endedTracks = [];
  const stream = new MediaStream([...canvas.captureStream(15).getVideoTracks(), ...destination.stream.getAudioTracks()]);
  await joinSpace({
    token,
    publish: stream,
    onTrack: ({ participantId, kind, track }) => {
      if (kind !== 'video') return;
      const video = document.createElement('video');
      video.muted = true;
      video.autoplay = true;
      video.srcObject = new MediaStream([track]);
      document.body.append(video);
      window.videos[participantId] = video;
    },
    onTrackEnded: ({ participantId, kind }) => window.endedTracks.push(`${participantId} ${kind}`),
    onActiveSpeaker: (participantId) => window.speakers.push(participantId),
    onParticipant: (event) => window.participantEvents.push(event),
    onClose: (event) => (window.closeEvent = event), // not `closed`: the window's own read-only flag
  });
};

/** The centre colour of each received video that has a frame, by participant. */
window.sampleVideos = () => {
  const colours = {};
  for (const [participantId, video] of Object.entries(window.videos)) {
    if (!video.videoWidth) continue;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    const context = canvas.getContext('2d');
    context.drawImage(video, 0, 0);
    colours[participantId] = [...context.getImageData(video.videoWidth / 2, video.videoHeight / 2, 1, 1).data.slice(0, 3)];
  }
  return colours;
};

/** The frames each received video has decoded so far, by participant. */
window.framesDecoded = () =>
  Object.fromEntries(Object.entries(window.videos).map(([participantId, video]) => [participantId, video.getVideoPlaybackQuality().totalVideoFrames]));

/** The colours of a base64 PNG at the given points. */
window.pngColours = async (png, points) => {
  const image = new Image();
  image.src = `data:image/png;base64,${png}`;
  await image.decode();
  const canvas = document.createElement('canvas');
  canvas.width = image.width;
  canvas.height = image.height;
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return points.map(([x, y]) => [...context.getImageData(x, y, 1, 1).data.slice(0, 3)]);
};

window.testParticipantReady = true;
