export const SCHEMA = 'web_inputs';
