export const SCHEMA = 'spaces';
