#!/usr/bin/env node
// `npm run token -- create --name ci --permissions video:write,data:read,system:write`,
// `npm run token -- list`, `npm run token -- revoke <id>`: manages the gateway's access
// tokens in its database (DATABASE_URL, or the embedded one under DATA_DIR).
'use strict';
const path = require('node:path');

const cli = require(path.join(__dirname, '..', 'services', 'gateway', 'dist', 'access-tokens', 'token-cli.js'));

cli.main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
