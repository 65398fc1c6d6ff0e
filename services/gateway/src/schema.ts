/** The Postgres schema the gateway owns; every table of it is qualified with this name. */
export const SCHEMA = 'gateway';
