export { ActiveSpeakerDetector, type ActiveSpeakerOptions } from './active-speaker';
export { DEFAULT_PUBLIC_DIR } from './browser-files';
export { galleryGrid, type GalleryCell, type GalleryGrid } from './gallery-grid';
export { RealtimeServer, SIGNALING_PATH, type RealtimeServerOptions } from './realtime-server';
export type { RealtimeIdentity, RealtimeListener, RealtimeLogger, RealtimeParticipant, VerifyToken } from './realtime-types';
export type { PeerConnectionState, Sfu, SfuPeer, SfuPeerEvents } from './sfu';
export { CloseCode } from './signaling-messages';
export { WeriftSfu, type WeriftSfuOptions } from './werift-sfu';
