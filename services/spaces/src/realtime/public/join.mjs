/* global document, location, URLSearchParams, navigator, MediaStream */
// The join page: /spaces/join?token=… — camera and microphone (if allowed), everyone else in a grid.
import { joinSpace } from '/spaces/client.js';

const grid = document.getElementById('grid');
const status = document.getElementById('status');
/** By participant id; '' is this page's own camera (ids are never empty). */
const figures = new Map();

function figureFor(participantId, label) {
  let figure = figures.get(participantId);
  if (!figure) {
    figure = document.createElement('figure');
    const video = document.createElement('video');
    video.autoplay = true;
    video.playsInline = true;
    video.muted = true;
    const caption = document.createElement('figcaption');
    caption.textContent = label;
    figure.append(video, caption);
    grid.append(figure);
    figures.set(participantId, figure);
  }
  return figure;
}

function showTrack({ participantId, kind, track }) {
  const figure = figureFor(participantId, participantId);
  if (kind === 'video') {
    figure.querySelector('video').srcObject = new MediaStream([track]);
    return;
  }
  const audio = document.createElement('audio');
  audio.autoplay = true;
  audio.srcObject = new MediaStream([track]);
  figure.append(audio);
}

function removeParticipant(participantId) {
  figures.get(participantId)?.remove();
  figures.delete(participantId);
}

function highlight(participantId) {
  for (const [id, figure] of figures) figure.classList.toggle('speaking', id === participantId);
}

async function main() {
  const token = new URLSearchParams(location.search).get('token');
  if (!token) throw new Error('this page needs ?token=');
  const local = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720 }, audio: true }).catch(() => null);
  if (local) figureFor('', 'you').querySelector('video').srcObject = local;
  const space = await joinSpace({
    token,
    publish: local,
    onTrack: showTrack,
    onParticipant: ({ id, joined }) => (joined ? figureFor(id, id) : removeParticipant(id)),
    onActiveSpeaker: highlight,
    onClose: ({ code, reason }) => (status.textContent = `Disconnected (${code}${reason ? `: ${reason}` : ''})`),
  });
  status.textContent = `Joined as ${space.participantId}${local ? '' : ' (no camera or microphone: receiving only)'}`;
}

main().catch((error) => {
  status.textContent = String(error.message ?? error);
});
