// ua-parser-js 1.0 ships no types (its @types package is not installed): the part the collector uses.
declare module 'ua-parser-js' {
  interface UAResult {
    browser: { name?: string; version?: string };
    os: { name?: string; version?: string };
    device: { type?: string; vendor?: string; model?: string };
  }
  export class UAParser {
    constructor(ua?: string);
    getResult(): UAResult;
  }
}
