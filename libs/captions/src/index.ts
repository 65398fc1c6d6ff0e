export * from './cues';
export * from './utterance-cues';
export * from './speech-recognizer';
export * from './speech-models';
export * from './subtitle-file';
export * from './segmented-vtt';
