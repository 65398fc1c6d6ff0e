/* global WebSocket, RTCPeerConnection, location */
// The spaces browser SDK, served at /spaces/client.js as an ES module:
//
//   import { joinSpace } from 'https://HOST/spaces/client.js';
//   const space = await joinSpace({ token, publish: stream, onTrack, onTrackEnded, onParticipant, onActiveSpeaker, onClose });
//   space.leave();
//
// Two PeerConnections per participant: `publish` (this page offers its tracks, sendonly) and
// `subscribe` (the server offers everyone else's tracks and renegotiates as they come and go).
// Protocol: services/spaces/src/realtime/README.md.

const SIGNALING_PATH = '/spaces/rtc';

/**
 * Joins a space. Resolves once the server has accepted the token, with
 * `{ participantId, hidden, participants, activeSpeaker, leave() }`.
 *
 * - `url`: the signaling endpoint (default `/spaces/rtc` of this page's host; http(s) becomes ws(s)).
 * - `publish`: a MediaStream whose tracks this participant sends, or null to only receive.
 * - `onTrack({ participantId, kind, track, mid })`: another participant's track arrived.
 * - `onTrackEnded({ participantId, kind, mid })`: that track is no longer forwarded.
 * - `onParticipant({ id, joined })`: another participant joined (true) or left (false); called
 *   first for those already there, in join order.
 * - `onActiveSpeaker(participantId | null)`: also called at once when someone is already speaking.
 * - `onClose({ code, reason })`: the connection ended (4401: refused token; see the README).
 */
export function joinSpace(options) {
  return new Promise((resolve, reject) => new SpaceConnection(options, resolve, reject));
}

class SpaceConnection {
  constructor(options, resolve, reject) {
    this.options = options;
    this.resolveJoin = resolve;
    this.rejectJoin = reject;
    this.participants = new Map();
    this.activeSpeaker = null;
    this.trackByMid = new Map();
    this.publishPc = null;
    this.subscribePc = null;
    this.closed = false;
    this.queue = Promise.resolve();
    const endpoint = new URL(options.url ?? SIGNALING_PATH, location.href);
    if (endpoint.protocol === 'http:') endpoint.protocol = 'ws:';
    if (endpoint.protocol === 'https:') endpoint.protocol = 'wss:';
    endpoint.searchParams.set('token', options.token ?? '');
    this.socket = new WebSocket(endpoint.href);
    this.socket.onopen = () => this.send({ type: 'join', publish: Boolean(options.publish) });
    this.socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      // One at a time: an offer must be answered before the next message is looked at.
      this.queue = this.queue.then(() => this.handle(message)).catch((error) => console.warn('spaces:', error));
    };
    this.socket.onclose = (event) => this.finish(event.code, event.reason);
  }

  send(message) {
    if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  async handle(message) {
    switch (message.type) {
      case 'joined':
        for (const participant of message.participants) {
          this.participants.set(participant.id, participant);
          this.options.onParticipant?.({ id: participant.id, joined: true });
        }
        this.activeSpeaker = message.activeSpeaker;
        if (message.activeSpeaker) this.options.onActiveSpeaker?.(message.activeSpeaker);
        this.resolveJoin(this.handleFor(message));
        if (this.options.publish) await this.startPublishing(this.options.publish);
        return;
      case 'publishAnswer':
        await this.publishPc.setRemoteDescription({ type: 'answer', sdp: message.sdp });
        return;
      case 'subscribeOffer':
        await this.answerSubscribeOffer(message.sdp, message.tracks);
        return;
      case 'participantJoined':
        this.participants.set(message.participant.id, message.participant);
        this.options.onParticipant?.({ id: message.participant.id, joined: true });
        return;
      case 'participantLeft':
        this.participants.delete(message.participantId);
        this.options.onParticipant?.({ id: message.participantId, joined: false });
        return;
      case 'activeSpeaker':
        this.activeSpeaker = message.participantId;
        this.options.onActiveSpeaker?.(message.participantId);
        return;
      case 'error':
        console.warn('spaces: server error:', message.message);
        return;
    }
  }

  handleFor(joined) {
    const connection = this;
    return {
      participantId: joined.participantId,
      hidden: joined.hidden,
      get participants() {
        return [...connection.participants.keys()];
      },
      get activeSpeaker() {
        return connection.activeSpeaker;
      },
      leave: () => {
        this.send({ type: 'leave' });
        this.socket.close(1000, 'left');
      },
    };
  }

  newPeerConnection(target) {
    const pc = new RTCPeerConnection({ iceServers: this.options.iceServers ?? [], bundlePolicy: 'max-bundle' });
    pc.onicecandidate = (event) => {
      const candidate = event.candidate && event.candidate.candidate ? event.candidate.toJSON() : null;
      this.send({ type: 'candidate', target, candidate });
    };
    return pc;
  }

  async startPublishing(stream) {
    const pc = this.newPeerConnection('publish');
    this.publishPc = pc;
    for (const track of stream.getTracks()) pc.addTransceiver(track, { direction: 'sendonly', streams: [stream] });
    await pc.setLocalDescription(await pc.createOffer());
    this.send({ type: 'publishOffer', sdp: pc.localDescription.sdp });
  }

  async answerSubscribeOffer(sdp, tracks) {
    if (!this.subscribePc) {
      this.subscribePc = this.newPeerConnection('subscribe');
      this.subscribePc.ontrack = (event) => {
        const info = this.trackByMid.get(event.transceiver.mid);
        if (info) this.options.onTrack?.({ participantId: info.participantId, kind: info.kind, track: event.track, mid: info.mid });
      };
    }
    const previous = this.trackByMid;
    this.trackByMid = new Map(tracks.map((track) => [track.mid, track]));
    await this.subscribePc.setRemoteDescription({ type: 'offer', sdp });
    await this.subscribePc.setLocalDescription(await this.subscribePc.createAnswer());
    this.send({ type: 'subscribeAnswer', sdp: this.subscribePc.localDescription.sdp });
    for (const [mid, info] of previous) {
      if (!this.trackByMid.has(mid)) this.options.onTrackEnded?.({ participantId: info.participantId, kind: info.kind, mid });
    }
  }

  finish(code, reason) {
    if (this.closed) return;
    this.closed = true;
    this.publishPc?.close();
    this.subscribePc?.close();
    this.rejectJoin(new Error(`spaces: connection closed (${code}${reason ? `: ${reason}` : ''})`));
    this.options.onClose?.({ code, reason });
  }
}
