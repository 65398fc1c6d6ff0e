/** The Postgres schema this service owns; every table of it is qualified with this name. */
export const SCHEMA = 'uploads';
