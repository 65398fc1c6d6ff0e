/* global document, location, URLSearchParams, MediaStream */
// The broadcast compositor: /spaces/compositor?token=…&layout=gallery|active-speaker|crop&width=&height=&background=<url>
// Joins as a hidden participant, lays the others out over the background at exactly width×height,
// plays every remote audio track, and prints START_RECORDING for the capture worker once the first
// tile shows a frame (or after 5 s) and END_RECORDING when the connection ends.
import { joinSpace } from '/spaces/client.js';
import { galleryGrid } from '/spaces/gallery-grid.js';

const MAX_GALLERY_TILES = 10;
const START_SIGNAL_TIMEOUT_MS = 5000;
const LAYOUTS = ['gallery', 'active-speaker', 'crop'];

const query = new URLSearchParams(location.search);
const layout = LAYOUTS.includes(query.get('layout')) ? query.get('layout') : 'gallery';
const width = dimension(query.get('width'), 1920);
const height = dimension(query.get('height'), 1080);
const stage = document.getElementById('stage');

/** Participant ids in join order, and each one's tile. */
const order = [];
const tiles = new Map();
/** Audio elements by the track's mid, with whose they are. */
const audios = new Map();
let activeSpeaker = null;
let started = false;

function dimension(value, fallback) {
  const number = Number(value);
  return Number.isInteger(number) && number > 0 && number <= 4096 ? number : fallback;
}

function frame() {
  for (const element of [document.documentElement, document.body]) {
    element.style.width = `${width}px`;
    element.style.height = `${height}px`;
  }
  const background = query.get('background');
  if (!background) return;
  try {
    const href = new URL(background, location.href).href;
    document.body.style.backgroundImage = `url("${href.replace(/["\\]/g, '\\$&')}")`;
  } catch {
    console.warn('compositor: ignoring an invalid background URL');
  }
}

function signalStart() {
  if (started) return;
  started = true;
  console.log('START_RECORDING');
}

function tileFor(participantId) {
  if (!order.includes(participantId)) order.push(participantId);
  let tile = tiles.get(participantId);
  if (!tile) {
    tile = document.createElement('video');
    tile.autoplay = true;
    tile.muted = true;
    tile.playsInline = true;
    tile.dataset.participant = participantId;
    stage.append(tile);
    tiles.set(participantId, tile);
  }
  return tile;
}

/** Which participants are on screen: the first ten joiners, the active speaker always among them. */
function shownParticipants() {
  if (layout === 'active-speaker') {
    const speaker = activeSpeaker && order.includes(activeSpeaker) ? activeSpeaker : order[0];
    return speaker ? [speaker] : [];
  }
  const shown = order.slice(0, MAX_GALLERY_TILES);
  if (activeSpeaker && order.includes(activeSpeaker) && !shown.includes(activeSpeaker)) shown[MAX_GALLERY_TILES - 1] = activeSpeaker;
  return shown;
}

function render() {
  const shown = shownParticipants();
  const cells = layout === 'active-speaker' ? [{ x: 0, y: 0, width, height }] : galleryGrid(shown.length, width, height, 16 / 9).cells;
  for (const [participantId, tile] of tiles) {
    const index = shown.indexOf(participantId);
    if (index < 0) {
      tile.style.display = 'none';
      continue;
    }
    const cell = cells[index];
    Object.assign(tile.style, {
      display: 'block',
      left: `${cell.x}px`,
      top: `${cell.y}px`,
      width: `${cell.width}px`,
      height: `${cell.height}px`,
      objectFit: layout === 'crop' ? 'cover' : 'contain',
    });
  }
}

function addTrack({ participantId, kind, track, mid }) {
  if (kind === 'audio') {
    const audio = document.createElement('audio');
    audio.autoplay = true;
    audio.srcObject = new MediaStream([track]);
    document.body.append(audio);
    audios.set(mid, { participantId, audio });
    return;
  }
  const tile = tileFor(participantId);
  tile.srcObject = new MediaStream([track]);
  tile.requestVideoFrameCallback(signalStart);
  render();
}

function removeAudio(mid) {
  audios.get(mid)?.audio.remove();
  audios.delete(mid);
}

function participantLeft(participantId) {
  const index = order.indexOf(participantId);
  if (index >= 0) order.splice(index, 1);
  tiles.get(participantId)?.remove();
  tiles.delete(participantId);
  for (const [mid, entry] of audios) if (entry.participantId === participantId) removeAudio(mid);
  render();
}

async function main() {
  frame();
  setTimeout(signalStart, START_SIGNAL_TIMEOUT_MS);
  await joinSpace({
    token: query.get('token') ?? '',
    publish: null,
    onTrack: addTrack,
    onTrackEnded: ({ kind, mid }) => {
      if (kind === 'audio') removeAudio(mid);
    },
    onParticipant: ({ id, joined }) => {
      if (!joined) return participantLeft(id);
      tileFor(id);
      render();
    },
    onActiveSpeaker: (participantId) => {
      activeSpeaker = participantId;
      render();
    },
    onClose: () => console.log('END_RECORDING'),
  });
}

main().catch((error) => {
  const message = document.createElement('div');
  message.className = 'error';
  message.textContent = String(error.message ?? error);
  document.body.append(message);
  console.error(String(error));
});
